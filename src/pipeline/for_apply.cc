#include "pipeline/for_apply.h"

#include <string>

#include "render/render.h"
#include "render/runtime_snapshot.h"

namespace tjr::pipeline {

void RemoveRuntimeSnapshot(TrainJobResult* result) {
  std::erase_if(result->objects,
                [result](const doc::Node& object) { return render::IsRuntimeSnapshotOf(object, result->id.name); });
}

void PrepareForApply(TrainJobResult* result) {
  // The runtime snapshot is read only by the controller, for its TrainJob.
  RemoveRuntimeSnapshot(result);
  for (doc::Node& object : result->objects) {
    doc::Node* metadata = object.is_mapping() ? object.FindMutable("metadata") : nullptr;
    if (metadata != nullptr && metadata->is_mapping()) metadata->Erase("ownerReferences");
  }
  for (Diagnostic& diagnostic : result->diagnostics) {
    if (diagnostic.severity != Severity::kNote || diagnostic.rule != render::kSecretNotRenderedRule) continue;
    diagnostic.severity = Severity::kWarning;
    diagnostic.message += "; applied without the Trainer controller, nothing creates it and the pods that mount "
                          "it do not start";
  }
}

}  // namespace tjr::pipeline
