#include "pipeline/for_apply.h"

#include "render/render.h"

namespace tjr::pipeline {

void PrepareForApply(TrainJobResult* result) {
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
