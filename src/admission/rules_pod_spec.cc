#include "admission/rules_parts.h"

#include <array>

// The rules of object_meta.cc, pod_spec.cc, pod_volumes.cc,
// pod_scheduling.cc and pod_security.cc.
namespace tjr::admission {
namespace {

constexpr std::string_view kMeta = "jobset job pod podtemplate configmap podgroup";
constexpr std::string_view kPod = "job pod podtemplate";

}  // namespace

std::span<const RuleInfo> PodSpecRuleRows() {
  static constexpr std::array<RuleInfo, 31> kRows = {{
      {"name", kMeta, "metadata.name (or generateName) is set and follows the kind's name rule",
       "apimachinery pkg/api/validation/objectmeta.go ValidateObjectMetaAccessor"},
      {"namespace", kMeta, "metadata.namespace is an RFC 1123 label (forbidden on cluster-scoped kinds)",
       "apimachinery pkg/api/validation/objectmeta.go validateObjectMetaAccessorWithOptsCommon"},
      {"labels", kMeta, "label keys are qualified names, values are label values (at most 63 characters)",
       "apimachinery pkg/apis/meta/v1/validation/validation.go ValidateLabels"},
      {"annotations", kMeta, "annotation keys are qualified names (any case), all of them at most 262144 bytes",
       "apimachinery pkg/api/validation/objectmeta.go ValidateAnnotations"},
      {"pod-annotations", kPod,
       "seccomp annotations name a valid profile; AppArmor annotations name an existing container and a valid profile",
       "pkg/apis/core/validation/validation.go ValidatePodSpecificAnnotations, ValidateSeccompPodAnnotations, "
       "ValidateAppArmorPodAnnotations"},
      {"termination-grace-period", kPod, "terminationGracePeriodSeconds is set",
       "pkg/apis/core/validation/validation.go ValidatePodSpec"},
      {"volumes", kPod,
       "volume names are unique RFC 1123 labels, one source each, and the sources' own fields (emptyDir sizeLimit, "
       "hostPath, configMap/secret/downwardAPI/projected items, paths and modes, claimName, csi driver, ephemeral)",
       "pkg/apis/core/validation/validation.go ValidateVolumes, validateVolumeSource"},
      {"resource-claims", kPod, "pod resource claims: unique RFC 1123 label names, exactly one claim or template name",
       "pkg/apis/core/validation/validation.go validatePodResourceClaims"},
      {"pod-resources", kPod, "pod-level resources set no claims",
       "pkg/apis/core/validation/validation.go validatePodResources"},
      {"host-network", kPod, "with hostNetwork a container's hostPort equals its containerPort",
       "pkg/apis/core/validation/validation.go validatePodHostNetworkDeps"},
      {"restart-policy", kPod, "restartPolicy is Always, OnFailure or Never",
       "pkg/apis/core/validation/validation.go validateRestartPolicy"},
      {"dns-policy", kPod, "dnsPolicy is ClusterFirstWithHostNet, ClusterFirst, Default or None",
       "pkg/apis/core/validation/validation.go validateDNSPolicy"},
      {"node-selector", kPod, "nodeSelector keys and values are labels",
       "pkg/apis/core/validation/validation.go ValidatePodSpec (ValidateLabels)"},
      {"pod-security-context", kPod,
       "pod securityContext ids, sysctl names (none of the host's namespaces), fsGroupChangePolicy, seccomp and "
       "AppArmor profiles, supplementalGroupsPolicy, shareProcessNamespace with hostPID",
       "pkg/apis/core/validation/validation.go validatePodSpecSecurityContext, validateSysctls"},
      {"affinity", kPod,
       "node affinity terms and operators, weights 1-100, pod (anti-)affinity label selectors, namespaces, "
       "matchLabelKeys and a topologyKey",
       "pkg/apis/core/validation/validation.go validateAffinity"},
      {"dns-config", kPod,
       "dnsPolicy None has a dnsConfig with a nameserver; at most 3 nameservers, each an IP address; 32 search paths "
       "of 2048 characters; options are named",
       "pkg/apis/core/validation/validation.go validatePodDNSConfig"},
      {"readiness-gates", kPod, "readiness gate condition types are qualified names",
       "pkg/apis/core/validation/validation.go validateReadinessGates"},
      {"scheduling-gates", kPod, "scheduling gate names are unique qualified names",
       "pkg/apis/core/validation/validation.go validateSchedulingGates"},
      {"topology-spread", kPod,
       "topology spread constraints: maxSkew and minDomains positive, topologyKey, whenUnsatisfiable, no repeated pair, "
       "node policies, matchLabelKeys, the label selector",
       "pkg/apis/core/validation/validation.go validateTopologySpreadConstraints"},
      {"host-users", kPod, "hostUsers false excludes hostNetwork, hostPID and hostIPC",
       "pkg/apis/core/validation/validation.go validateHostUsers"},
      {"service-account-name", kPod, "serviceAccountName is an RFC 1123 subdomain",
       "pkg/apis/core/validation/validation.go ValidatePodSpec"},
      {"node-name", kPod, "nodeName is an RFC 1123 subdomain", "pkg/apis/core/validation/validation.go ValidatePodSpec"},
      {"pod-active-deadline", kPod, "the pod's activeDeadlineSeconds is between 1 and 2147483647",
       "pkg/apis/core/validation/validation.go ValidatePodSpec"},
      {"hostname", kPod, "hostname and subdomain are RFC 1123 labels",
       "pkg/apis/core/validation/validation.go ValidatePodSpec"},
      {"tolerations", kPod,
       "toleration keys, Equal/Exists operators and their values, effects, tolerationSeconds only with NoExecute",
       "pkg/apis/core/validation/validation.go ValidateTolerations"},
      {"host-aliases", kPod, "host aliases: an IP address and RFC 1123 subdomain hostnames",
       "pkg/apis/core/validation/validation.go ValidateHostAliases"},
      {"priority-class", kPod, "priorityClassName is an RFC 1123 subdomain",
       "pkg/apis/core/validation/validation.go ValidatePodSpec"},
      {"runtime-class", kPod, "runtimeClassName is an RFC 1123 subdomain",
       "pkg/apis/core/validation/validation.go ValidateRuntimeClassName"},
      {"preemption-policy", kPod, "preemptionPolicy is PreemptLowerPriority or Never",
       "pkg/apis/core/validation/validation.go ValidatePreemptionPolicy"},
      {"os", kPod, "os.name is linux or windows; a linux pod sets no windowsOptions",
       "pkg/apis/core/validation/validation.go validateOS, validateLinux"},
      {"ephemeral-containers", kPod, "no ephemeral containers in a template or a new Pod",
       "pkg/apis/core/validation/validation.go ValidatePodTemplateSpec, ValidatePodCreate"},
  }};
  return kRows;
}

}  // namespace tjr::admission
