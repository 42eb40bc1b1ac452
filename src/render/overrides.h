#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"

namespace tjr::render {

/// Trainer v2.1.0's mergePodTemplateOverrides (spec §2.2): for each entry of
/// `trainjob.spec.podTemplateOverrides` in list order, and for each
/// replicated job of `jobset_spec` (in runtime order) that the entry names in
/// `targetJobs`, the patch {metadata: {labels?, annotations?}, spec?} is
/// strategic-merged into the job's `template.spec.template` as a
/// core/v1.PodTemplateSpec, and the result is decoded into that Go type.
///
/// The override's spec is first reduced to what the typed TrainJob holds: a
/// round trip through the release's PodTemplateSpecOverride (policies/
/// trainer-v2.1.0.json), which drops the keys the API server prunes. The result is the whole JobSetSpec in typed form, as the
/// controller's runtime info holds it after its own decode: Go field order,
/// canonical quantities, unknown keys dropped (typed::TypedRoundTrip into
/// JobSetSpec). Errors are the decoder's or the merge's.
Result<doc::Node> MergePodTemplateOverrides(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                            trainer::TrainerVersion version);

/// The patch one override contributes (exposed for tests): the JSON that
/// json.Marshal gives for upstream's `podTemplatePatch` map.
Result<doc::Node> OverridePatch(const doc::Node& override_entry, trainer::TrainerVersion version);

}  // namespace tjr::render
