#include "explain/explain.h"

namespace tjr::explain {

const char* LayerKindName(LayerKind kind) {
  switch (kind) {
    case LayerKind::kRuntime: return "runtime";
    case LayerKind::kDefault: return "default";
    case LayerKind::kTypedRoundTrip: return "typed";
    case LayerKind::kOverride: return "podTemplateOverride";
    case LayerKind::kPatch: return "runtimePatch";
    case LayerKind::kPlugin: return "plugin";
    case LayerKind::kBuilder: return "builder";
    case LayerKind::kFlyteDefaultTemplate: return "flyte-default-template";
    case LayerKind::kFlytePrimaryTemplate: return "flyte-primary-template";
    case LayerKind::kFlyteTask: return "flyte-task";
    case LayerKind::kFlytePluginConfig: return "flyte-plugin-config";
    case LayerKind::kFlyteTaskResources: return "flyte-task-resources";
    case LayerKind::kFlyteExecutionOverrides: return "flyte-execution-overrides";
    case LayerKind::kFlytePropeller: return "flyte-propeller";
  }
  return "runtime";
}

const Field* ObjectExplanation::Find(std::string_view path) const {
  for (const Field& field : fields) {
    if (field.path == path) return &field;
  }
  return nullptr;
}

}  // namespace tjr::explain
