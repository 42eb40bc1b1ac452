// The pod template defaults of pkg/apis/core/v1/defaults.go at v1.34.0,
// v1.35.0 and v1.36.0 (the same there), in the order the generated
// SetObjectDefaults_PodTemplate / SetObjectDefaults_Job call them on a
// template's spec: SetDefaults_PodSpec, then each volume, init container
// and container. The `+default` markers of k8s.io/api/core/v1 types.go
// (ContainerPort.Protocol "TCP", GRPCAction.Service "") are applied where
// the generated code applies them. Not emulated: SetDefaults_ResourceList's
// rounding of quantities up to milli-units (a sub-milli quantity such as
// "0.1m" is validated as written, not as "1m").
#include "admission/pod_defaults.h"

#include <optional>
#include <string>
#include <vector>

#include "doc/path.h"
#include "gocompat/regexp.h"

namespace tjr::admission {
namespace {

// Whether Go's decoded field is its zero value: absent, null, "" or 0.
bool IsZero(const doc::Node* value) {
  if (value == nullptr || value->is_null()) return true;
  if (value->is_string()) return value->string_value().empty();
  if (value->is_int()) return value->int_value() == 0;
  return false;
}

// Sets `key` to `value` when Go would see its zero value; a written zero
// value lends its location to the default that replaces it.
void Default(doc::Node& object, std::string_view key, doc::Node value) {
  const doc::Node* current = object.Find(key);
  if (!IsZero(current)) return;
  if (current != nullptr) value.set_location(current->location());
  object.Set(std::string(key), std::move(value));
}

void DefaultString(doc::Node& object, std::string_view key, std::string_view value) {
  Default(object, key, doc::Node::String(std::string(value)));
}

void DefaultInt(doc::Node& object, std::string_view key, std::int64_t value) {
  Default(object, key, doc::Node::Int(value));
}

// A pointer field: only an absent (nil) one is defaulted; a written 0 stays.
void DefaultPointer(doc::Node& object, std::string_view key, doc::Node value) {
  const doc::Node* current = object.Find(key);
  if (current != nullptr && !current->is_null()) return;
  if (current != nullptr) value.set_location(current->location());
  object.Set(std::string(key), std::move(value));
}

// The mapping at `key` when it is one (a set pointer to a struct).
doc::Node* MappingAt(doc::Node& object, std::string_view key) {
  doc::Node* child = object.FindMutable(key);
  return child != nullptr && child->is_mapping() ? child : nullptr;
}

template <typename Fn>
void ForEachItem(doc::Node& object, std::string_view key, Fn&& fn) {
  doc::Node* list = object.FindMutable(key);
  if (list == nullptr || !list->is_sequence()) return;
  for (doc::Node& item : list->mutable_items()) {
    if (item.is_mapping()) fn(item);
  }
}

// SetDefaults_ObjectFieldSelector.
void DefaultFieldRef(doc::Node& holder) {
  if (doc::Node* field_ref = MappingAt(holder, "fieldRef")) DefaultString(*field_ref, "apiVersion", "v1");
}

// SetDefaults_HTTPGetAction.
void DefaultHttpGet(doc::Node& handler) {
  doc::Node* http_get = MappingAt(handler, "httpGet");
  if (http_get == nullptr) return;
  DefaultString(*http_get, "path", "/");
  DefaultString(*http_get, "scheme", "HTTP");
}

// SetDefaults_Probe, its httpGet, and GRPCAction.Service's `+default=""`.
void DefaultProbe(doc::Node& container, std::string_view key) {
  doc::Node* probe = MappingAt(container, key);
  if (probe == nullptr) return;
  DefaultInt(*probe, "timeoutSeconds", 1);
  DefaultInt(*probe, "periodSeconds", 10);
  DefaultInt(*probe, "successThreshold", 1);
  DefaultInt(*probe, "failureThreshold", 3);
  DefaultHttpGet(*probe);
  if (doc::Node* grpc = MappingAt(*probe, "grpc")) DefaultPointer(*grpc, "service", doc::Node::String(""));
}

void DefaultContainer(doc::Node& container) {
  // SetDefaults_Container.
  if (IsZero(container.Find("imagePullPolicy"))) {
    DefaultString(container, "imagePullPolicy", DefaultPullPolicy(doc::StringAt(container, "image")));
  }
  DefaultString(container, "terminationMessagePath", "/dev/termination-log");
  DefaultString(container, "terminationMessagePolicy", "File");
  ForEachItem(container, "ports", [](doc::Node& port) { DefaultString(port, "protocol", "TCP"); });
  ForEachItem(container, "env", [](doc::Node& env) {
    if (doc::Node* value_from = MappingAt(env, "valueFrom")) DefaultFieldRef(*value_from);
  });
  DefaultProbe(container, "livenessProbe");
  DefaultProbe(container, "readinessProbe");
  DefaultProbe(container, "startupProbe");
  if (doc::Node* lifecycle = MappingAt(container, "lifecycle")) {
    for (std::string_view hook : {"postStart", "preStop"}) {
      if (doc::Node* handler = MappingAt(*lifecycle, hook)) DefaultHttpGet(*handler);
    }
  }
}

// The volume sources a volume may name (VolumeSource's fields at v1.34.0);
// SetDefaults_Volume makes a volume that names none an emptyDir.
constexpr std::string_view kVolumeSources[] = {
    "hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
    "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
    "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected",
    "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
};

// The octal 0644 of SecretVolumeSourceDefaultMode and its siblings.
constexpr std::int64_t kDefaultMode = 0644;

void DefaultDownwardApiItems(doc::Node& source) { ForEachItem(source, "items", DefaultFieldRef); }

void DefaultVolume(doc::Node& volume) {
  bool has_source = false;
  for (std::string_view source : kVolumeSources) has_source = has_source || doc::At(&volume, source) != nullptr;
  if (!has_source) volume.Set("emptyDir", doc::Node::Mapping());
  if (doc::Node* host_path = MappingAt(volume, "hostPath")) DefaultPointer(*host_path, "type", doc::Node::String(""));
  for (std::string_view key : {"secret", "configMap"}) {
    if (doc::Node* source = MappingAt(volume, key)) DefaultPointer(*source, "defaultMode", doc::Node::Int(kDefaultMode));
  }
  if (doc::Node* iscsi = MappingAt(volume, "iscsi")) DefaultString(*iscsi, "iscsiInterface", "default");
  if (doc::Node* downward = MappingAt(volume, "downwardAPI")) {
    DefaultPointer(*downward, "defaultMode", doc::Node::Int(kDefaultMode));
    DefaultDownwardApiItems(*downward);
  }
  if (doc::Node* azure = MappingAt(volume, "azureDisk")) {
    DefaultPointer(*azure, "cachingMode", doc::Node::String("ReadWrite"));
    DefaultPointer(*azure, "kind", doc::Node::String("Shared"));
    DefaultPointer(*azure, "fsType", doc::Node::String("ext4"));
    DefaultPointer(*azure, "readOnly", doc::Node::Bool(false));
  }
  if (doc::Node* projected = MappingAt(volume, "projected")) {
    DefaultPointer(*projected, "defaultMode", doc::Node::Int(kDefaultMode));
    ForEachItem(*projected, "sources", [](doc::Node& source) {
      if (doc::Node* downward = MappingAt(source, "downwardAPI")) DefaultDownwardApiItems(*downward);
      if (doc::Node* token = MappingAt(source, "serviceAccountToken")) {
        DefaultPointer(*token, "expirationSeconds", doc::Node::Int(3600));  // SetDefaults_ServiceAccountTokenProjection
      }
    });
  }
  if (doc::Node* image = MappingAt(volume, "image")) {  // SetDefaults_ImageVolumeSource
    if (IsZero(image->Find("pullPolicy"))) {
      DefaultString(*image, "pullPolicy", DefaultPullPolicy(doc::StringAt(*image, "reference")));
    }
  }
}

}  // namespace

// parsers.ParseImageName through docker/distribution's reference grammar
// (ParseNormalizedNamed): a reference it refuses gives no tag, hence
// IfNotPresent, like a digest without a tag.
std::string_view DefaultPullPolicy(std::string_view image) {
  // Go's regexp, as reference.Parse uses: linear in the image's length
  // (std::regex recursed per character and overflowed the stack on long
  // images).
  static const gocompat::Regexp kReference =
      gocompat::Regexp::Compile(
          "^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*"
          "|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?/)?"
          "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*"
          "(?::([\\w][\\w.-]{0,127}))?"
          "(@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$")
          .value();
  static const gocompat::Regexp kHexIdentifier = gocompat::Regexp::Compile("^[a-f0-9]{64}$").value();
  if (image.empty() || kHexIdentifier.Match(image)) return "IfNotPresent";
  const std::optional<std::vector<std::ptrdiff_t>> found = kReference.FindSubmatchIndex(image);
  if (!found) return "IfNotPresent";
  const auto group = [&](int index) -> std::string_view {
    const std::ptrdiff_t begin = (*found)[2 * index], end = (*found)[2 * index + 1];
    return begin < 0 ? std::string_view() : image.substr(begin, end - begin);
  };
  const bool tagged = (*found)[2] >= 0;
  const bool digested = (*found)[4] >= 0;
  const std::string_view tag = group(1);
  const std::string_view digest = group(2);
  // reference.Parse refuses a normalized name ("docker.io/library/" added
  // to a name without a domain) longer than NameTotalLengthMax.
  std::string_view name = image.substr(0, image.size() - tag.size() - (tagged ? 1 : 0) - digest.size());
  const std::size_t slash = name.find('/');
  const std::string_view first = name.substr(0, slash);
  const bool has_domain = slash != std::string_view::npos &&
                          (first.find_first_of(".:") != std::string_view::npos || first == "localhost");
  const std::size_t normalized =
      name.size() + (has_domain ? 0 : slash == std::string_view::npos ? 18 : 10);  // docker.io/[library/]
  if (normalized > 255) return "IfNotPresent";
  if (tagged) return tag == "latest" ? "Always" : "IfNotPresent";
  return digested ? "IfNotPresent" : "Always";
}

void DefaultPodTemplateSpec(doc::Node* spec) {
  if (spec == nullptr || !spec->is_mapping()) return;
  // SetDefaults_PodSpec.
  DefaultString(*spec, "dnsPolicy", "ClusterFirst");
  DefaultString(*spec, "restartPolicy", "Always");
  DefaultPointer(*spec, "securityContext", doc::Node::Mapping());
  DefaultPointer(*spec, "terminationGracePeriodSeconds", doc::Node::Int(30));
  DefaultString(*spec, "schedulerName", "default-scheduler");
  ForEachItem(*spec, "volumes", DefaultVolume);
  ForEachItem(*spec, "initContainers", DefaultContainer);
  ForEachItem(*spec, "containers", DefaultContainer);
  ForEachItem(*spec, "ephemeralContainers", DefaultContainer);
}

}  // namespace tjr::admission
