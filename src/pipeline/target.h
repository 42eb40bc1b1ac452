#pragma once

#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"
#include "validate/validate.h"

// What a `--target` selects: one emulated Trainer release, as a profile of
// the pieces that differ between releases.
namespace tjr::pipeline {

/// One emulated Trainer release.
struct TargetProfile {
  std::string_view name;            ///< "trainer-v2.3"
  trainer::TrainerVersion version;  ///< the release row (trainer/release.h) whose behaviour it renders
  /// The API server's schema and CEL checks of a TrainJob (before webhooks).
  Diagnostics (*validate_schema)(const doc::Node& trainjob, const validate::ValidateOptions& options);
  /// The TrainJob validating webhook, given the resolved runtime; sees the
  /// merged JobSetSpec through ValidateOptions::merged_jobset_spec.
  Diagnostics (*validate_webhook)(const doc::Node& trainjob, const doc::Node& runtime,
                                  const validate::ValidateOptions& options);
  /// The (Cluster)TrainingRuntime admission (CEL and webhook).
  Diagnostics (*validate_runtime)(const doc::Node& runtime, trainer::TrainerVersion version);
  /// Rewrites a TrainJob of an API no release has into the release's own
  /// before anything else sees it (nullptr: none).
  Result<doc::Node> (*translate)(const doc::Node& trainjob);
  /// Not a release: a preview of a proposal, marked so in --help.
  bool experimental;
};

/// The supported targets, oldest first.
const std::vector<TargetProfile>& Targets();

/// The target used when neither the flag nor `.tjrender.yaml` names one.
inline constexpr std::string_view kDefaultTarget = "trainer-v2.3";

/// The profile named `name`, or nullptr.
const TargetProfile* FindTarget(std::string_view name);

/// The target that emulates an upstream release tag ("v2.1.0", "v2.1.3",
/// "2.1.0": trainer-v2.1): the release row of the same minor version, its
/// patch releases assumed to render alike; nullptr for a release no target
/// emulates (v2.0.x, a later minor) or a tag that is no version.
const TargetProfile* TargetOfReleaseTag(std::string_view tag);

/// "v2.1" of trainer-v2.1: its release's tag without the patch number.
std::string ReleaseMinorOf(const TargetProfile& target);

/// When every error of one TrainJob is a field its target's release removed
/// (validate::IsRemovedFieldError: podTemplateOverrides at v2.2+), adds to
/// the first that the newest target which still has the field renders it
/// ("or pass `--target trainer-v2.1` if the cluster runs v2.1"). Returns
/// whether it did.
bool AddOlderTargetHint(Diagnostics* diagnostics);

/// Builds the immutable tables renders for `target` read (its Go schema, CRD
/// defaults and CRD validation rules), about 5 ms of start-up, so that a
/// caller can have it done on another thread while it reads its inputs.
/// Renders build them on first use anyway; errors surface there.
void PrepareTarget(const TargetProfile& target);

/// PrepareTarget for each named target (unknown names are skipped; the
/// caller reports them) on a thread of its own, joined when the returned
/// thread goes out of scope; nothing when `threads` is 1.
std::jthread PrepareInBackground(std::vector<std::string> target_names, unsigned threads);

}  // namespace tjr::pipeline
