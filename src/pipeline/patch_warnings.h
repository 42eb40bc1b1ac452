#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"

// Rules beyond upstream for runtimePatches (Trainer v2.2+): what the webhook
// lets through but breaks at run time or surprises (trainer-runtimepatches.md
// §2.5, §3.4, §1.8). Each finding is a warning whose message starts with
// "[<rule>] "; --strict makes them errors.
namespace tjr::pipeline {

inline constexpr std::string_view kRulePatchContainerTrainer = "patch-container-trainer";
inline constexpr std::string_view kRulePatchJobUnknown = "patch-job-unknown";
inline constexpr std::string_view kRulePatchManagerOverlap = "patch-manager-overlap";
inline constexpr std::string_view kRulePatchTimeWritten = "patch-time-written";

/// Checks the runtimePatches of `trainjob` (as written, for locations)
/// against the runtime's template (`runtime` as stored):
///  - patch-container-trainer: a patch names container `trainer` in a job
///    whose trainer container is `node` (the upstream docs' examples do):
///    the controller adds a second container `trainer` with no image (other
///    unknown names are override-container-unknown of warnings.h);
///  - patch-job-unknown (v2.3): a replicatedJob the runtime lacks, added by
///    the whole-spec merge with an empty pod template;
///  - patch-manager-overlap: two managers set the same scalar, map key or
///    replaced list (merge strategies from the policies/ schema) of one job,
///    or the same JobSet label/annotation, to different values: the later
///    entry silently wins;
///  - patch-time-written: `time` is written by hand; what the mutating
///    webhook does with it depends on `old` (the stored TrainJob, or
///    nullptr for a create).
Diagnostics CheckRuntimePatches(const doc::Node& trainjob, const doc::Node& runtime, trainer::TrainerVersion version,
                                const doc::Node* old);

/// Drops the override-container-unknown warnings of `rendered` that a
/// patch-container-trainer warning of `patch_warnings` explains better (same
/// container, same location).
void SupersedeRendered(Diagnostics* rendered, const Diagnostics& patch_warnings);

}  // namespace tjr::pipeline
