#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

// How one TrainJob's v2.1 fields map onto `spec.runtimePatches`
// (trainer-runtimepatches.md §4): which RuntimePatch entries, under which
// managers, patch which replicated jobs with which override.
namespace tjr::migrate {

/// The manager the Kubeflow SDK writes (and `tjrender migrate`'s default).
inline constexpr const char* kDefaultManager = "trainer.kubeflow.org/kubeflow-sdk";

/// What the migration writes.
enum class Shape {
  /// `spec.runtimePatches` (Trainer v2.2+; the comparison renders at trainer-v2.3).
  kRuntimePatches,
  /// EXPERIMENTAL: `spec.templateOverrides` as proposed in kubeflow/trainer PR #3199 (never
  /// released): entries keyed by `manager`, each with `job` and `pod` override lists keyed by
  /// `time`; a `job` entry without `targetJobs` patches the JobSet's metadata.
  kTemplateOverridesPreview,
};

/// The TrainJob field `shape` writes ("runtimePatches", "templateOverrides").
const char* FieldName(Shape shape);

/// One `replicatedJobs[]` entry: the job and the override whose pod patch
/// (`metadata`, `spec`) it carries.
struct PlannedJob {
  std::string name;
  std::size_t override_index = 0;
  std::size_t target_index = 0;  ///< in the override's targetJobs
};

/// One RuntimePatch.
struct PlannedPatch {
  std::string manager;
  /// Carries `spec.labels`/`spec.annotations` as JobSet-level metadata (the
  /// first patch only).
  bool jobset_metadata = false;
  std::vector<PlannedJob> jobs;
};

/// Everything a TrainJob's migration needs, or why it cannot migrate.
struct Plan {
  std::vector<PlannedPatch> patches;
  /// The new field's value as data (what the rewritten file must read as).
  doc::Node runtime_patches;
  Shape shape = Shape::kRuntimePatches;
  /// Fields with no place in runtimePatches, one error each (with the
  /// field's location): the TrainJob must stay as it is.
  Diagnostics errors;
  /// Whether the TrainJob has anything to migrate at all.
  bool has_v21_fields = false;
};

/// Whether `manager` is a domain-prefixed path as the Trainer webhook
/// requires (`example.com/path`): the message when it is not, else empty.
std::string CheckManager(const std::string& manager);

/// Plans the migration of one TrainJob (its whole document). Overrides
/// apply in list order; they are packed greedily into RuntimePatches: the
/// next override joins the current patch unless it targets a job the patch
/// already patches, in which case it starts a new one. So every job's pod
/// patches keep their order, and no patch names a job twice (list-map
/// uniqueness). The first patch is `manager`, later ones `manager-2`,
/// `manager-3`, ....
///
/// kTemplateOverridesPreview: one entry per override (`manager`, then
/// `manager-2`, ...), each with one `pod` item holding the override as
/// written; spec.labels/annotations become a `job` item without targetJobs
/// in the first entry. One override per entry because `pod` items are keyed
/// by `time`, which the webhook would stamp alike for items created together.
Plan PlanTrainJob(const doc::Node& trainjob, const std::string& manager,
                  Shape shape = Shape::kRuntimePatches);

}  // namespace tjr::migrate
