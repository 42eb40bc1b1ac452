#include "pipeline/for_apply.h"

#include <string>

#include "render/render.h"
#include "render/runtime_snapshot.h"

namespace tjr::pipeline {

void RemoveRuntimeSnapshot(TrainJobResult* result) {
  const std::string snapshot = result->id.name + std::string(render::kRuntimeSnapshotSuffix);
  std::erase_if(result->objects, [&snapshot](const doc::Node& object) {
    const doc::Node* kind = object.Find("kind");
    const doc::Node* metadata = object.Find("metadata");
    const doc::Node* name = metadata != nullptr ? metadata->Find("name") : nullptr;
    return kind != nullptr && kind->is_string() && kind->string_value() == "ConfigMap" && name != nullptr &&
           name->is_string() && name->string_value() == snapshot;
  });
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
