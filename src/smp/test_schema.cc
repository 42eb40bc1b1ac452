#include "smp/test_schema.h"

#include <deque>
#include <initializer_list>
#include <string>

namespace tjr::smp::testing {
namespace {

using schema::Type;
using Kind = schema::Type::Kind;

struct F {
  std::string json;
  const Type* type;
  std::string strategy = "";
  std::string merge_key = "";
  bool pointer = false;
};

F Ptr(std::string json, const Type* type) { return F{std::move(json), type, "", "", true}; }

class Types {
 public:
  Type* Make(std::string name, Kind kind, const Type* elem = nullptr) {
    Type& type = types_.emplace_back();
    type.name = std::move(name);
    type.kind = kind;
    type.elem = elem;
    type.source = "src/smp/test_schema.cc";
    return &type;
  }
  const Type* SliceOf(const Type* elem) { return Make("[]" + elem->name, Kind::kSlice, elem); }
  const Type* MapOf(const Type* elem) {
    return Make("map[string]" + elem->name, Kind::kMap, elem);
  }
  static void Fields(Type* type, std::initializer_list<F> fields) {
    for (const F& f : fields) {
      schema::Field field;
      field.json_name = f.json;
      field.type = f.type;
      field.pointer = f.pointer;
      field.omitempty = true;
      if (!f.strategy.empty()) {
        std::string rest = f.strategy;
        for (std::size_t comma; (comma = rest.find(',')) != std::string::npos;) {
          field.patch_strategies.push_back(rest.substr(0, comma));
          rest = rest.substr(comma + 1);
        }
        field.patch_strategies.push_back(rest);
      }
      field.patch_merge_key = f.merge_key;
      type->fields.push_back(std::move(field));
    }
  }

 private:
  std::deque<Type> types_;
};

struct Core {
  Types t;
  const Type* str = t.Make("string", Kind::kString);
  const Type* i32 = t.Make("int32", Kind::kInt);
  const Type* i64 = t.Make("int64", Kind::kInt);
  const Type* boolean = t.Make("bool", Kind::kBool);
  const Type* quantity = t.Make("k8s.io/apimachinery/pkg/api/resource.Quantity", Kind::kCustomJson);
  const Type* int_or_string =
      t.Make("k8s.io/apimachinery/pkg/util/intstr.IntOrString", Kind::kCustomJson);
  const Type* time = t.Make("k8s.io/apimachinery/pkg/apis/meta/v1.Time", Kind::kCustomJson);
  const Type* fields_v1 = t.Make("k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1", Kind::kCustomJson);
  const Type* strings = t.SliceOf(str);
  const Type* string_map = t.MapOf(str);
  const Type* resource_list = t.MapOf(quantity);

  Type* Struct(const std::string& name) { return t.Make(name, Kind::kStruct); }
  Type* Core1(const std::string& name) { return Struct("k8s.io/api/core/v1." + name); }
  Type* Meta1(const std::string& name) {
    return Struct("k8s.io/apimachinery/pkg/apis/meta/v1." + name);
  }

  Type* pod = Core1("Pod");
  Type* pod_template_spec = Core1("PodTemplateSpec");
  Type* object_meta = Meta1("ObjectMeta");
  Type* owner_reference = Meta1("OwnerReference");
  Type* managed_fields_entry = Meta1("ManagedFieldsEntry");
  Type* label_selector = Meta1("LabelSelector");
  Type* label_selector_requirement = Meta1("LabelSelectorRequirement");
  Type* pod_spec = Core1("PodSpec");
  Type* pod_status = Core1("PodStatus");
  Type* pod_condition = Core1("PodCondition");
  Type* container = Core1("Container");
  Type* ephemeral_container = Core1("EphemeralContainer");
  Type* container_port = Core1("ContainerPort");
  Type* env_var = Core1("EnvVar");
  Type* env_var_source = Core1("EnvVarSource");
  Type* env_from_source = Core1("EnvFromSource");
  Type* config_map_env_source = Core1("ConfigMapEnvSource");
  Type* secret_env_source = Core1("SecretEnvSource");
  Type* object_field_selector = Core1("ObjectFieldSelector");
  Type* resource_field_selector = Core1("ResourceFieldSelector");
  Type* config_map_key_selector = Core1("ConfigMapKeySelector");
  Type* secret_key_selector = Core1("SecretKeySelector");
  Type* resource_requirements = Core1("ResourceRequirements");
  Type* resource_claim = Core1("ResourceClaim");
  Type* volume_mount = Core1("VolumeMount");
  Type* volume_device = Core1("VolumeDevice");
  Type* probe = Core1("Probe");
  Type* exec_action = Core1("ExecAction");
  Type* http_get_action = Core1("HTTPGetAction");
  Type* http_header = Core1("HTTPHeader");
  Type* tcp_socket_action = Core1("TCPSocketAction");
  Type* lifecycle = Core1("Lifecycle");
  Type* lifecycle_handler = Core1("LifecycleHandler");
  Type* security_context = Core1("SecurityContext");
  Type* capabilities = Core1("Capabilities");
  Type* pod_security_context = Core1("PodSecurityContext");
  Type* sysctl = Core1("Sysctl");
  Type* seccomp_profile = Core1("SeccompProfile");
  Type* volume = Core1("Volume");
  Type* host_path = Core1("HostPathVolumeSource");
  Type* empty_dir = Core1("EmptyDirVolumeSource");
  Type* secret_volume = Core1("SecretVolumeSource");
  Type* config_map_volume = Core1("ConfigMapVolumeSource");
  Type* key_to_path = Core1("KeyToPath");
  Type* pvc_volume = Core1("PersistentVolumeClaimVolumeSource");
  Type* nfs_volume = Core1("NFSVolumeSource");
  Type* local_object_reference = Core1("LocalObjectReference");
  Type* toleration = Core1("Toleration");
  Type* affinity = Core1("Affinity");
  Type* node_affinity = Core1("NodeAffinity");
  Type* node_selector = Core1("NodeSelector");
  Type* node_selector_term = Core1("NodeSelectorTerm");
  Type* node_selector_requirement = Core1("NodeSelectorRequirement");
  Type* preferred_scheduling_term = Core1("PreferredSchedulingTerm");
  Type* pod_affinity = Core1("PodAffinity");
  Type* pod_anti_affinity = Core1("PodAntiAffinity");
  Type* pod_affinity_term = Core1("PodAffinityTerm");
  Type* weighted_pod_affinity_term = Core1("WeightedPodAffinityTerm");
  Type* host_alias = Core1("HostAlias");
  Type* pod_scheduling_gate = Core1("PodSchedulingGate");
  Type* topology_spread_constraint = Core1("TopologySpreadConstraint");
  Type* pod_resource_claim = Core1("PodResourceClaim");
  Type* pod_readiness_gate = Core1("PodReadinessGate");
  Type* pod_os = Core1("PodOS");

  Core() {
    Types::Fields(pod, {{"kind", str}, {"apiVersion", str}, {"metadata", object_meta},
                        {"spec", pod_spec}, {"status", pod_status}});
    Types::Fields(pod_template_spec, {{"metadata", object_meta}, {"spec", pod_spec}});
    Types::Fields(object_meta,
                  {{"name", str},
                   {"generateName", str},
                   {"namespace", str},
                   {"selfLink", str},
                   {"uid", str},
                   {"resourceVersion", str},
                   {"generation", i64},
                   {"creationTimestamp", time},
                   Ptr("deletionTimestamp", time),
                   Ptr("deletionGracePeriodSeconds", i64),
                   {"labels", string_map},
                   {"annotations", string_map},
                   {"ownerReferences", t.SliceOf(owner_reference), "merge", "uid"},
                   {"finalizers", strings, "merge"},
                   {"managedFields", t.SliceOf(managed_fields_entry)}});
    Types::Fields(owner_reference, {{"apiVersion", str}, {"kind", str}, {"name", str},
                                    {"uid", str}, Ptr("controller", boolean),
                                    Ptr("blockOwnerDeletion", boolean)});
    Types::Fields(managed_fields_entry,
                  {{"manager", str}, {"operation", str}, {"apiVersion", str}, Ptr("time", time),
                   {"fieldsType", str}, Ptr("fieldsV1", fields_v1), {"subresource", str}});
    Types::Fields(label_selector, {{"matchLabels", string_map},
                                   {"matchExpressions", t.SliceOf(label_selector_requirement)}});
    Types::Fields(label_selector_requirement,
                  {{"key", str}, {"operator", str}, {"values", strings}});
    Types::Fields(
        pod_spec,
        {{"volumes", t.SliceOf(volume), "merge,retainKeys", "name"},
         {"initContainers", t.SliceOf(container), "merge", "name"},
         {"containers", t.SliceOf(container), "merge", "name"},
         {"ephemeralContainers", t.SliceOf(ephemeral_container), "merge", "name"},
         {"restartPolicy", str},
         Ptr("terminationGracePeriodSeconds", i64),
         Ptr("activeDeadlineSeconds", i64),
         {"dnsPolicy", str},
         {"nodeSelector", string_map},
         {"serviceAccountName", str},
         {"serviceAccount", str},
         Ptr("automountServiceAccountToken", boolean),
         {"nodeName", str},
         {"hostNetwork", boolean},
         {"hostPID", boolean},
         {"hostIPC", boolean},
         Ptr("shareProcessNamespace", boolean),
         Ptr("securityContext", pod_security_context),
         {"imagePullSecrets", t.SliceOf(local_object_reference), "merge", "name"},
         {"hostname", str},
         {"subdomain", str},
         Ptr("affinity", affinity),
         {"schedulerName", str},
         {"tolerations", t.SliceOf(toleration)},
         {"hostAliases", t.SliceOf(host_alias), "merge", "ip"},
         {"priorityClassName", str},
         Ptr("priority", i32),
         {"readinessGates", t.SliceOf(pod_readiness_gate)},
         Ptr("runtimeClassName", str),
         Ptr("enableServiceLinks", boolean),
         Ptr("preemptionPolicy", str),
         {"overhead", resource_list},
         {"topologySpreadConstraints", t.SliceOf(topology_spread_constraint), "merge",
          "topologyKey"},
         Ptr("setHostnameAsFQDN", boolean),
         Ptr("os", pod_os),
         Ptr("hostUsers", boolean),
         {"schedulingGates", t.SliceOf(pod_scheduling_gate), "merge", "name"},
         {"resourceClaims", t.SliceOf(pod_resource_claim), "merge,retainKeys", "name"},
         Ptr("resources", resource_requirements),
         Ptr("hostnameOverride", str)});
    Types::Fields(pod_status, {{"observedGeneration", i64},
                               {"phase", str},
                               {"conditions", t.SliceOf(pod_condition), "merge", "type"},
                               {"message", str},
                               {"reason", str},
                               {"hostIP", str},
                               {"podIP", str},
                               Ptr("startTime", time)});
    Types::Fields(pod_condition, {{"type", str}, {"observedGeneration", i64}, {"status", str},
                                  {"lastProbeTime", time}, {"lastTransitionTime", time},
                                  {"reason", str}, {"message", str}});
    const std::initializer_list<F> container_fields = {
        {"name", str},
        {"image", str},
        {"command", strings},
        {"args", strings},
        {"workingDir", str},
        {"ports", t.SliceOf(container_port), "merge", "containerPort"},
        {"envFrom", t.SliceOf(env_from_source)},
        {"env", t.SliceOf(env_var), "merge", "name"},
        {"resources", resource_requirements},
        {"volumeMounts", t.SliceOf(volume_mount), "merge", "mountPath"},
        {"volumeDevices", t.SliceOf(volume_device), "merge", "devicePath"},
        Ptr("livenessProbe", probe),
        Ptr("readinessProbe", probe),
        Ptr("startupProbe", probe),
        Ptr("lifecycle", lifecycle),
        {"terminationMessagePath", str},
        {"terminationMessagePolicy", str},
        {"imagePullPolicy", str},
        Ptr("securityContext", security_context),
        {"stdin", boolean},
        {"stdinOnce", boolean},
        {"tty", boolean}};
    Types::Fields(container, container_fields);
    Types::Fields(ephemeral_container, container_fields);
    Types::Fields(ephemeral_container, {{"targetContainerName", str}});
    Types::Fields(container_port, {{"name", str}, {"hostPort", i32}, {"containerPort", i32},
                                   {"protocol", str}, {"hostIP", str}});
    Types::Fields(env_var, {{"name", str}, {"value", str}, Ptr("valueFrom", env_var_source)});
    Types::Fields(env_var_source, {Ptr("fieldRef", object_field_selector),
                                   Ptr("resourceFieldRef", resource_field_selector),
                                   Ptr("configMapKeyRef", config_map_key_selector),
                                   Ptr("secretKeyRef", secret_key_selector)});
    Types::Fields(env_from_source, {{"prefix", str}, Ptr("configMapRef", config_map_env_source),
                                    Ptr("secretRef", secret_env_source)});
    Types::Fields(config_map_env_source, {{"name", str}, Ptr("optional", boolean)});
    Types::Fields(secret_env_source, {{"name", str}, Ptr("optional", boolean)});
    Types::Fields(object_field_selector, {{"apiVersion", str}, {"fieldPath", str}});
    Types::Fields(resource_field_selector,
                  {{"containerName", str}, {"resource", str}, {"divisor", quantity}});
    Types::Fields(config_map_key_selector,
                  {{"name", str}, {"key", str}, Ptr("optional", boolean)});
    Types::Fields(secret_key_selector, {{"name", str}, {"key", str}, Ptr("optional", boolean)});
    Types::Fields(resource_requirements, {{"limits", resource_list},
                                          {"requests", resource_list},
                                          {"claims", t.SliceOf(resource_claim)}});
    Types::Fields(resource_claim, {{"name", str}, {"request", str}});
    Types::Fields(volume_mount, {{"name", str}, {"readOnly", boolean},
                                 Ptr("recursiveReadOnly", str), {"mountPath", str},
                                 {"subPath", str}, Ptr("mountPropagation", str),
                                 {"subPathExpr", str}});
    Types::Fields(volume_device, {{"name", str}, {"devicePath", str}});
    Types::Fields(probe, {Ptr("exec", exec_action), Ptr("httpGet", http_get_action),
                          Ptr("tcpSocket", tcp_socket_action), {"initialDelaySeconds", i32},
                          {"timeoutSeconds", i32}, {"periodSeconds", i32},
                          {"successThreshold", i32}, {"failureThreshold", i32},
                          Ptr("terminationGracePeriodSeconds", i64)});
    Types::Fields(exec_action, {{"command", strings}});
    Types::Fields(http_get_action, {{"path", str}, {"port", int_or_string}, {"host", str},
                                    {"scheme", str}, {"httpHeaders", t.SliceOf(http_header)}});
    Types::Fields(http_header, {{"name", str}, {"value", str}});
    Types::Fields(tcp_socket_action, {{"port", int_or_string}, {"host", str}});
    Types::Fields(lifecycle, {Ptr("postStart", lifecycle_handler),
                              Ptr("preStop", lifecycle_handler), Ptr("stopSignal", str)});
    Types::Fields(lifecycle_handler, {Ptr("exec", exec_action), Ptr("httpGet", http_get_action),
                                      Ptr("tcpSocket", tcp_socket_action)});
    Types::Fields(security_context,
                  {Ptr("capabilities", capabilities), Ptr("privileged", boolean),
                   Ptr("runAsUser", i64), Ptr("runAsGroup", i64), Ptr("runAsNonRoot", boolean),
                   Ptr("readOnlyRootFilesystem", boolean),
                   Ptr("allowPrivilegeEscalation", boolean), Ptr("procMount", str),
                   Ptr("seccompProfile", seccomp_profile)});
    Types::Fields(capabilities, {{"add", strings}, {"drop", strings}});
    Types::Fields(pod_security_context,
                  {Ptr("runAsUser", i64), Ptr("runAsGroup", i64), Ptr("runAsNonRoot", boolean),
                   {"supplementalGroups", t.SliceOf(i64)}, Ptr("fsGroup", i64),
                   {"sysctls", t.SliceOf(sysctl)}, Ptr("fsGroupChangePolicy", str),
                   Ptr("seccompProfile", seccomp_profile)});
    Types::Fields(sysctl, {{"name", str}, {"value", str}});
    Types::Fields(seccomp_profile, {{"type", str}, Ptr("localhostProfile", str)});
    // VolumeSource is inline in Volume: its fields are flattened.
    Types::Fields(volume, {{"name", str},
                           Ptr("hostPath", host_path),
                           Ptr("emptyDir", empty_dir),
                           Ptr("secret", secret_volume),
                           Ptr("nfs", nfs_volume),
                           Ptr("persistentVolumeClaim", pvc_volume),
                           Ptr("configMap", config_map_volume)});
    Types::Fields(host_path, {{"path", str}, Ptr("type", str)});
    Types::Fields(empty_dir, {{"medium", str}, Ptr("sizeLimit", quantity)});
    Types::Fields(secret_volume, {{"secretName", str}, {"items", t.SliceOf(key_to_path)},
                                  Ptr("defaultMode", i32), Ptr("optional", boolean)});
    Types::Fields(config_map_volume, {{"name", str}, {"items", t.SliceOf(key_to_path)},
                                      Ptr("defaultMode", i32), Ptr("optional", boolean)});
    Types::Fields(key_to_path, {{"key", str}, {"path", str}, Ptr("mode", i32)});
    Types::Fields(pvc_volume, {{"claimName", str}, {"readOnly", boolean}});
    Types::Fields(nfs_volume, {{"server", str}, {"path", str}, {"readOnly", boolean}});
    Types::Fields(local_object_reference, {{"name", str}});
    Types::Fields(toleration, {{"key", str}, {"operator", str}, {"value", str}, {"effect", str},
                               Ptr("tolerationSeconds", i64)});
    Types::Fields(affinity, {Ptr("nodeAffinity", node_affinity), Ptr("podAffinity", pod_affinity),
                             Ptr("podAntiAffinity", pod_anti_affinity)});
    Types::Fields(node_affinity,
                  {Ptr("requiredDuringSchedulingIgnoredDuringExecution", node_selector),
                   {"preferredDuringSchedulingIgnoredDuringExecution",
                    t.SliceOf(preferred_scheduling_term)}});
    Types::Fields(node_selector, {{"nodeSelectorTerms", t.SliceOf(node_selector_term)}});
    Types::Fields(node_selector_term,
                  {{"matchExpressions", t.SliceOf(node_selector_requirement)},
                   {"matchFields", t.SliceOf(node_selector_requirement)}});
    Types::Fields(node_selector_requirement,
                  {{"key", str}, {"operator", str}, {"values", strings}});
    Types::Fields(preferred_scheduling_term,
                  {{"weight", i32}, {"preference", node_selector_term}});
    for (Type* type : {pod_affinity, pod_anti_affinity}) {
      Types::Fields(type, {{"requiredDuringSchedulingIgnoredDuringExecution",
                            t.SliceOf(pod_affinity_term)},
                           {"preferredDuringSchedulingIgnoredDuringExecution",
                            t.SliceOf(weighted_pod_affinity_term)}});
    }
    Types::Fields(pod_affinity_term,
                  {Ptr("labelSelector", label_selector), {"namespaces", strings},
                   {"topologyKey", str}, Ptr("namespaceSelector", label_selector),
                   {"matchLabelKeys", strings}, {"mismatchLabelKeys", strings}});
    Types::Fields(weighted_pod_affinity_term,
                  {{"weight", i32}, {"podAffinityTerm", pod_affinity_term}});
    Types::Fields(host_alias, {{"ip", str}, {"hostnames", strings}});
    Types::Fields(pod_scheduling_gate, {{"name", str}});
    Types::Fields(topology_spread_constraint,
                  {{"maxSkew", i32}, {"topologyKey", str}, {"whenUnsatisfiable", str},
                   Ptr("labelSelector", label_selector), Ptr("minDomains", i32),
                   Ptr("nodeAffinityPolicy", str), Ptr("nodeTaintsPolicy", str),
                   {"matchLabelKeys", strings}});
    Types::Fields(pod_resource_claim, {{"name", str}, Ptr("resourceClaimName", str),
                                       Ptr("resourceClaimTemplateName", str)});
    Types::Fields(pod_readiness_gate, {{"conditionType", str}});
    Types::Fields(pod_os, {{"name", str}});
  }
};

const Core& CoreTypes() {
  static const Core* const core = new Core();
  return *core;
}

// patch_test.go's MergeItem / RetainKeysMergeItem.
struct MergeItems {
  Types t;
  const Type* str = t.Make("string", Kind::kString);
  const Type* integer = t.Make("int", Kind::kInt);
  const Type* raw_extension =
      t.Make("k8s.io/apimachinery/pkg/runtime.RawExtension", Kind::kCustomJson);
  Type* merge_item = t.Make("k8s.io/apimachinery/pkg/util/strategicpatch.MergeItem", Kind::kStruct);
  Type* retain_keys_merge_item =
      t.Make("k8s.io/apimachinery/pkg/util/strategicpatch.RetainKeysMergeItem", Kind::kStruct);

  MergeItems() {
    const Type* items = t.SliceOf(merge_item);
    const Type* ints = t.SliceOf(integer);
    const Type* simple_map = t.MapOf(str);
    Types::Fields(merge_item, {{"name", str},
                               {"value", str},
                               {"other", str},
                               {"mergingList", items, "merge", "name"},
                               {"nonMergingList", items},
                               {"mergingIntList", ints, "merge"},
                               {"nonMergingIntList", ints},
                               {"mergeItemPtr", merge_item, "merge", "name", true},
                               {"simpleMap", simple_map},
                               {"replacingItem", raw_extension, "replace"},
                               {"retainKeysMap", retain_keys_merge_item, "retainKeys"},
                               {"retainKeysMergingList", items, "merge,retainKeys", "name"}});
    Types::Fields(retain_keys_merge_item, {{"name", str},
                                           {"value", str},
                                           {"other", str},
                                           {"simpleMap", simple_map},
                                           {"mergingIntList", ints, "merge"},
                                           {"mergingList", items, "merge", "name"},
                                           {"nonMergingList", items}});
  }
};

const MergeItems& MergeItemTypes() {
  static const MergeItems* const items = new MergeItems();
  return *items;
}

}  // namespace

const schema::Type& PodType() { return *CoreTypes().pod; }
const schema::Type& PodTemplateSpecType() { return *CoreTypes().pod_template_spec; }
const schema::Type& PodSpecType() { return *CoreTypes().pod_spec; }
const schema::Type& MergeItemType() { return *MergeItemTypes().merge_item; }
const schema::Type& StringMapType() { return *CoreTypes().string_map; }

}  // namespace tjr::smp::testing
