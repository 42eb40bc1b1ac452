#include "source/document_class.h"

#include <algorithm>
#include <string_view>

namespace tjr::source {
namespace {

// Kinds whose objects are configuration of the tools around a cluster,
// never applied to one. Each is read by its tool from the repository; none
// is served by an API server (a kustomization applied with kubectl fails
// with `no matches for kind "Kustomization"`).
struct ConfigOnlyKind {
  std::string_view group;  // ApiGroup() of the apiVersion ("" for "v1")
  std::string_view kind;   // empty: every kind of the group
  std::string_view tool;
};
constexpr ConfigOnlyKind kConfigOnlyKinds[] = {
    // kustomize: kustomization.yaml and components (api/types/kustomization.go).
    {"kustomize.config.k8s.io", "", "kustomize's configuration"},
    // kustomize builtin generators and transformers configured in files
    // (`apiVersion: builtin`, api/konfig/builtinpluginconsts).
    {"builtin", "", "the configuration of a kustomize builtin plugin"},
    // kpt: the package's Kptfile and function configs.
    {"kpt.dev", "Kptfile", "kpt's package metadata"},
    {"fn.kpt.dev", "", "a kpt function's configuration"},
    // A KRM function's input and output (kyaml/fn/framework).
    {"config.kubernetes.io", "", "a KRM function's ResourceList"},
    // Argo CD's plugin.yaml is read by the sidecar from disk; the CRD of that
    // name was removed in Argo CD 2.8.
    {"argoproj.io", "ConfigManagementPlugin", "an Argo CD plugin's configuration (plugin.yaml)"},
    // Local cluster tools' configuration files.
    {"kind.x-k8s.io", "Cluster", "kind's cluster configuration"},
    {"skaffold", "Config", "skaffold's configuration"},
    {"k3d.io", "", "k3d's configuration"},
    {"ctlptl.dev", "", "ctlptl's configuration"},
};

// The annotation kpt and kustomize use for objects that are input to their
// functions only: "true" means never applied (kpt's annotations reference).
constexpr char kLocalConfigAnnotation[] = "config.kubernetes.io/local-config";

const std::string* StringField(const doc::Node& mapping, std::string_view key) {
  const doc::Node* value = mapping.Find(key);
  return value != nullptr && value->is_string() ? &value->string_value() : nullptr;
}

bool NonEmptyString(const std::string* value) { return value != nullptr && !value->empty(); }

// Whether the document names a kind the caller keeps closely enough that
// its flaws are worth an error: the Trainer group, a kept kind, or
// PodTemplate (Flyte's templates).
bool ClaimsKeptKind(const doc::Node& document, const std::vector<ObjectType>& kept) {
  const std::string* api_version = StringField(document, "apiVersion");
  const std::string* kind = StringField(document, "kind");
  if (kind != nullptr && *kind == "PodTemplate") return true;
  for (const ObjectType& type : kept) {
    const std::string group = ApiGroup(type.api_version);
    if (api_version != nullptr && !group.empty() && ApiGroup(*api_version) == group) return true;
    // Kinds every API group has (ConfigMap) say nothing about the intent.
    if (kind != nullptr && *kind == type.kind && !group.empty()) return true;
  }
  return false;
}

}  // namespace

bool IsConfigOnly(const doc::Node& object, std::string* why) {
  const std::string* api_version = StringField(object, "apiVersion");
  const std::string* kind = StringField(object, "kind");
  if (api_version == nullptr || kind == nullptr) return false;
  // "builtin" is a group of its own; "v1" is the core group's version.
  const std::string group = api_version->find('/') == std::string::npos && *api_version != "v1"
                                ? *api_version
                                : ApiGroup(*api_version);
  for (const ConfigOnlyKind& known : kConfigOnlyKinds) {
    if (group == known.group && (known.kind.empty() || *kind == known.kind)) {
      if (why != nullptr) *why = *kind + " (" + *api_version + ") is " + std::string(known.tool) + ", not a cluster object";
      return true;
    }
  }
  const doc::Node* metadata = object.Find("metadata");
  const doc::Node* annotations = metadata != nullptr && metadata->is_mapping() ? metadata->Find("annotations") : nullptr;
  const std::string* local = annotations != nullptr && annotations->is_mapping()
                                 ? StringField(*annotations, kLocalConfigAnnotation)
                                 : nullptr;
  if (local != nullptr && *local == "true") {
    if (why != nullptr) {
      *why = *kind + " is marked " + std::string(kLocalConfigAnnotation) +
             ": \"true\" (input to client-side tools, never applied)";
    }
    return true;
  }
  return false;
}

DocumentVerdict ClassifyDocument(const doc::Node& document, const std::vector<ObjectType>& kept) {
  if (document.is_sequence()) {
    return {DocumentClass::kNotAnObject, "a YAML sequence, not an object (a JSON 6902 patch list?)"};
  }
  if (!document.is_mapping()) {
    const std::string_view name = doc::KindName(document.kind());
    return {DocumentClass::kNotAnObject, (name.starts_with('i') ? "an " : "a ") + std::string(name) + ", not an object"};
  }
  if (ClaimsKeptKind(document, kept)) return {};
  const bool has_api_version = NonEmptyString(StringField(document, "apiVersion"));
  const bool has_kind = NonEmptyString(StringField(document, "kind"));
  if (!has_api_version || !has_kind) {
    return {DocumentClass::kNotAnObject,
            std::string("not a Kubernetes object (no string ") +
                (!has_api_version && !has_kind ? "apiVersion and kind" : !has_kind ? "kind" : "apiVersion") + ")"};
  }
  std::string why;
  if (IsConfigOnly(document, &why)) return {DocumentClass::kConfigOnly, why};
  return {};
}

}  // namespace tjr::source
