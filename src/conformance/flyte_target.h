#pragma once

#include <string>
#include <vector>

#include "conformance/target.h"

namespace tjr::conformance {

/// Target `flyte`: Flyte task documents, v1 PodTemplates and a propeller
/// configuration (a ConfigMap with plugins.k8s, or the file named by
/// --flyte-config) of input/ rendered into Pods. Options: --target
/// flyte-v1.16|flyte-v2, --namespace NS, --flyte-config FILE, --strict.
Result<TargetOutput> RunFlyteTarget(const std::vector<InputFile>& inputs,
                                    const std::vector<std::string>& command);

}  // namespace tjr::conformance
