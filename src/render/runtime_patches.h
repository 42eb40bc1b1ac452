#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"

namespace tjr::render {

/// The runtime's JobSetSpec with the TrainJob's patches of `version` merged:
/// podTemplateOverrides (v2.1, see overrides.h), or runtimePatches per
/// replicated job (v2.2, MergeRuntimePatchesPerJob) or into the whole spec
/// (v2.3, MergeRuntimePatchesWholeSpec). `jobset_spec` is the runtime's
/// spec.template.spec as stored. The result is typed, as the controller's
/// runtime info holds it: decoded into `version`'s JobSetSpec and encoded
/// again (typed::TypedRoundTrip), whether or not a patch applied.
Result<doc::Node> MergeJobSetTemplate(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                      trainer::TrainerVersion version);

/// Trainer v2.2.0's mergeRuntimePatches (spec §2.3 "v2.2.x differs"): for
/// each runtimePatches entry with a template spec, in list order, and for
/// each of its replicatedJobs patches with a template, every replicated job
/// of that name gets the patch's JobTemplatePatch strategic-merged into its
/// `template` as a batch/v1.JobTemplateSpec (Kubernetes 1.35) and decoded
/// back. Names the runtime lacks are skipped; nothing is added or moved.
Result<doc::Node> MergeRuntimePatchesPerJob(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                            trainer::TrainerVersion version);

/// Trainer v2.3.0's mergeRuntimePatches (spec §2.3): for each entry with a
/// template spec, in list order, the current JobSetSpec (typed JSON) gets the
/// entry's JobSetSpecPatch strategic-merged with JobSet v0.12.0's schema
/// (replicatedJobs merged by name, unknown names added) and decoded back;
/// then replicatedJobs are stably sorted back to the runtime's order, a name
/// the runtime lacks counting as index 0.
Result<doc::Node> MergeRuntimePatchesWholeSpec(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                               trainer::TrainerVersion version);

/// The JSON of one entry's `trainingRuntimeSpec.template.spec` as the typed
/// TrainJob of `version` marshals it (JobSetSpecPatch: unknown keys dropped,
/// omitempty, core/v1 values typed); null when the entry has no template spec.
Result<doc::Node> JobSetSpecPatchJson(const doc::Node& runtime_patch, trainer::TrainerVersion version);

}  // namespace tjr::render
