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
