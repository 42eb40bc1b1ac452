#include "admission/rules_parts.h"

#include <array>

namespace tjr::admission {

// The rules of the container checks (containers.cc and the container_*,
// probes and volume_mounts files beside it).
std::span<const RuleInfo> ContainerRuleRows() {
  static constexpr std::array<RuleInfo, 14> kRows = {{
      {"containers", "job pod podtemplate", "a pod spec has at least one container",
       "pkg/apis/core/validation/validation.go validateContainers"},
      {"container-name", "job pod podtemplate",
       "container and init container names are RFC 1123 labels, unique across both lists",
       "pkg/apis/core/validation/validation.go validateContainerCommon, validateContainers, validateInitContainers"},
      {"image", "job pod podtemplate", "every container names an image",
       "pkg/apis/core/validation/validation.go validateContainerCommon"},
      {"termination-message", "job pod podtemplate", "terminationMessagePolicy is File or FallbackToLogsOnError",
       "pkg/apis/core/validation/validation.go validateContainerCommon"},
      {"image-pull-policy", "job pod podtemplate", "imagePullPolicy is Always, IfNotPresent or Never",
       "pkg/apis/core/validation/validation.go validatePullPolicy"},
      {"ports", "job pod podtemplate",
       "container ports: IANA names unique per container, port numbers 1-65535, TCP/UDP/SCTP, no host port twice",
       "pkg/apis/core/validation/validation.go validateContainerPorts, AccumulateUniqueHostPorts"},
      {"env", "job pod podtemplate",
       "env names (relaxed rule), value or exactly one valueFrom source, the selectors, envFrom prefixes and sources",
       "pkg/apis/core/validation/validation.go ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom"},
      {"resources", "job pod podtemplate",
       "resource names and quantities; requests at most limits, equal to them for extended resources and hugepages",
       "pkg/apis/core/validation/validation.go ValidateContainerResourceRequirements"},
      {"resize-policy", "job pod podtemplate",
       "resizePolicy names cpu and memory once each, NotRequired or RestartContainer (NotRequired under Never)",
       "pkg/apis/core/validation/validation.go validateResizePolicy"},
      {"volume-mounts", "job pod podtemplate",
       "volume mounts and devices name a pod volume, unique paths, relative subPaths, propagation, recursiveReadOnly",
       "pkg/apis/core/validation/validation.go ValidateVolumeMounts, ValidateVolumeDevices"},
      {"probes", "job pod podtemplate",
       "probes have one handler, non-negative counters, successThreshold 1 for liveness and startup",
       "pkg/apis/core/validation/validation.go validateProbe, validateLivenessProbe, validateReadinessProbe"},
      {"lifecycle", "job pod podtemplate", "postStart and preStop hooks have one valid handler",
       "pkg/apis/core/validation/validation.go validateLifecycle, validateHandler"},
      {"sidecars", "job pod podtemplate",
       "only init containers set restartPolicy (Always: a sidecar); probes and lifecycle only on sidecars",
       "pkg/apis/core/validation/validation.go validateInitContainers, validateInitContainerRestartPolicy"},
      {"security-context", "job pod podtemplate", "container runAsUser and runAsGroup ids, procMount, seccomp and AppArmor profiles",
       "pkg/apis/core/validation/validation.go ValidateSecurityContext"},
  }};
  return kRows;
}

}  // namespace tjr::admission
