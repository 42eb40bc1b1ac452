#include "explain/palette.h"

namespace tjr::explain {

const char* LayerColour(LayerKind kind) {
  switch (kind) {
    case LayerKind::kRuntime: return "\033[34m";  // blue
    case LayerKind::kDefault:
    case LayerKind::kFlyteTaskResources: return "\033[90m";  // grey: defaults nobody wrote here
    case LayerKind::kTypedRoundTrip: return "\033[36m";      // cyan
    case LayerKind::kOverride:
    case LayerKind::kPatch: return "\033[33m";  // yellow: the TrainJob's own changes
    case LayerKind::kPlugin:
    case LayerKind::kFlytePluginConfig: return "\033[35m";  // magenta
    case LayerKind::kBuilder:
    case LayerKind::kFlytePropeller: return "\033[32m";  // green: the controller's own values
    case LayerKind::kFlyteDefaultTemplate:
    case LayerKind::kFlytePrimaryTemplate: return "\033[94m";  // bright blue
    case LayerKind::kFlyteTask:
    case LayerKind::kFlyteExecutionOverrides: return "\033[31m";  // red
  }
  return "\033[34m";
}

}  // namespace tjr::explain
