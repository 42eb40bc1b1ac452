#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "explain/explain.h"
#include "pipeline/pipeline.h"

namespace tjr::explain {

/// The explanation of one TrainJob's rendered objects: the render replayed
/// layer by layer from `inputs` (PipelineOptions::keep_inputs):
///   runtime (as written) -> default (its CRD defaults) -> typed round trip
///   (the controller's decode of the runtime's JobSetSpec) -> each
///   podTemplateOverrides / runtimePatches entry in order (the merge of the
///   entries so far, typed again) -> builder (the JobSet built from that
///   runtime info) -> each plugin in Render's order.
/// The JobSet's fields get their chains from these stages; the other
/// objects (ConfigMaps, PodGroups) are the plugin's or builder's that made
/// them. `rendered` are the objects the pipeline rendered (admission
/// included), `target` the target's name.
Result<Explanation> ExplainTrainJob(const pipeline::RenderInputs& inputs, const std::vector<doc::Node>& rendered,
                                    const std::string& target);

}  // namespace tjr::explain
