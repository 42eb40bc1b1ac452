#include "admission/rules_parts.h"

#include <array>

namespace tjr::admission {

// The rules of the ConfigMap and PodGroup checks (other_objects.cc).
std::span<const RuleInfo> OtherObjectRuleRows() {
  static constexpr std::array<RuleInfo, 3> kRows = {{
      {"config-map-keys", "configmap",
       "data and binaryData keys are config keys ([-._a-zA-Z0-9]+, at most 253), no key in both",
       "pkg/apis/core/validation/validation.go ValidateConfigMap"},
      {"config-map-size", "configmap", "data and binaryData hold at most 1048576 bytes together",
       "pkg/apis/core/validation/validation.go ValidateConfigMap"},
      {"pod-group", "podgroup",
       "the PodGroup CRD's schema: int32 counts, quantity minResources, Volcano's string fields and "
       "networkTopology.mode",
       "scheduler-plugins manifests/coscheduling/crd.yaml; volcano config/crd/volcano/bases/"
       "scheduling.volcano.sh_podgroups.yaml"},
  }};
  return kRows;
}

}  // namespace tjr::admission
