// ValidateEnv, validateEnvVarValueFrom and its selectors, ValidateEnvFrom
// (pkg/apis/core/validation/validation.go; see containers.cc for the revision read).
//
// RelaxedEnvironmentVariableValidation is GA and locked on from 1.34
// (kubernetes/kubernetes#132054), so every emulated release checks names
// and prefixes with IsRelaxedEnvVarName, not the C-identifier rule: "1_X"
// and "a:b" are valid names.
#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"
#include "typed/quantity.h"

namespace tjr::admission::containers {
namespace {

using validate::BadValue;

constexpr std::string_view kRule = "env";

// validEnvDownwardAPIFieldPathExpressions, in sets.List (sorted) order.
constexpr std::array<std::string_view, 9> kFieldPaths = {
    "metadata.name", "metadata.namespace", "metadata.uid",  "spec.nodeName", "spec.serviceAccountName",
    "status.hostIP", "status.hostIPs",     "status.podIP", "status.podIPs"};

// validContainerResourceFieldPathExpressions, sorted.
constexpr std::array<std::string_view, 6> kResourcePaths = {
    "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage",
    "requests.memory"};

template <std::size_t N>
bool Contains(const std::array<std::string_view, N>& set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

// fieldpath.SplitMaybeSubscriptedPath: "metadata.labels['x']" -> path, key.
bool SplitSubscripted(std::string_view field_path, std::string* path, std::string* subscript) {
  if (!field_path.ends_with("']")) return false;
  const std::string_view trimmed = field_path.substr(0, field_path.size() - 2);
  const std::size_t open = trimmed.find("['");
  if (open == std::string_view::npos || open == 0) return false;
  *path = std::string(trimmed.substr(0, open));
  *subscript = std::string(trimmed.substr(open + 2));
  return true;
}

std::string ToLower(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return text;
}

// pods.ConvertDownwardAPIFieldLabel's error for (version, label), or "".
std::string ConvertDownwardApiError(const std::string& version, const std::string& label) {
  if (version != "v1") return "unsupported pod version: " + version;
  std::string path;
  std::string subscript;
  if (SplitSubscripted(label, &path, &subscript)) {
    if (path == "metadata.annotations" || path == "metadata.labels") return "";
    return "field label does not support subscript: " + label;
  }
  static constexpr std::array<std::string_view, 15> kLabels = {
      "metadata.annotations", "metadata.labels",  "metadata.name",  "metadata.namespace", "metadata.uid",
      "spec.nodeName",        "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
      "status.phase",         "status.hostIP",    "status.hostIPs", "status.podIP",       "status.podIPs",
      "spec.host"};
  if (Contains(kLabels, label)) return "";
  return "field label not supported: " + label;
}

}  // namespace

// validateObjectFieldSelector and validateContainerResourceFieldSelector,
// shared with the downward API volume files (pod_volumes.cc).
void ObjectFieldSelector(const doc::Node& selector, std::span<const std::string_view> expressions, const Path& path,
                         std::string_view rule, ObjectErrors* errors) {
  const std::string version = StringField(&selector, "apiVersion");
  std::string field_path = StringField(&selector, "fieldPath");
  if (version.empty()) {
    errors->Add(rule, Required(path.Child("apiVersion")), &selector);
    return;
  }
  if (field_path.empty()) {
    errors->Add(rule, Required(path.Child("fieldPath")), &selector);
    return;
  }
  if (std::string error = ConvertDownwardApiError(version, field_path); !error.empty()) {
    errors->Add(rule,
                Invalid(path.Child("fieldPath"), BadValue::String(field_path), "error converting fieldPath: " + error),
                {selector.Find("fieldPath"), &selector});
    return;
  }
  if (field_path == "spec.host") field_path = "spec.nodeName";
  std::string base;
  std::string subscript;
  if (SplitSubscripted(field_path, &base, &subscript)) {
    if (base == "metadata.annotations" || base == "metadata.labels") {
      const std::string key = base == "metadata.annotations" ? ToLower(subscript) : subscript;
      for (std::string& message : formats::QualifiedName(key)) {
        errors->Add(rule, Invalid(path, BadValue::String(key), std::move(message)), &selector);
      }
    } else {
      errors->Add(rule, Invalid(path, BadValue::String(base), "does not support subscript"), &selector);
    }
  } else if (std::find(expressions.begin(), expressions.end(), field_path) == expressions.end()) {
    errors->Add(rule,
                NotSupported(path.Child("fieldPath"), BadValue::String(field_path), expressions),
                {selector.Find("fieldPath"), &selector});
  }
}

// validateContainerResourceDivisor: a divisor other than the zero quantity
// must be one of the listed units for the resource.
static void ValidateDivisor(const std::string& resource, const doc::Node& selector, const Path& path, std::string_view rule,
                     ObjectErrors* errors) {
  const doc::Node* divisor_node = doc::At(&selector, "divisor");
  if (divisor_node == nullptr) return;
  typed::Quantity divisor;
  if (!divisor.UnmarshalJson(*divisor_node).ok() || divisor.is_zero()) return;
  const std::string text = divisor.String();
  static constexpr std::array<std::string_view, 13> kBytes = {"1",  "1k",  "1M",  "1G",  "1T",  "1P", "1E",
                                                              "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"};
  const Path divisor_path = path.Child("divisor");
  auto refuse = [&](std::string detail) {
    errors->Add(rule, Invalid(divisor_path, BadValue::String(resource), std::move(detail)), {divisor_node, &selector});
  };
  const std::string byte_units = "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are "
                                 "supported with the ";
  if (resource == "limits.cpu" || resource == "requests.cpu") {
    if (text != "1m" && text != "1") refuse("only divisor's values 1m and 1 are supported with the cpu resource");
  } else if (resource == "limits.memory" || resource == "requests.memory") {
    if (!Contains(kBytes, text)) refuse(byte_units + "memory resource");
  } else if (resource == "limits.ephemeral-storage" || resource == "requests.ephemeral-storage") {
    if (!Contains(kBytes, text)) refuse(byte_units + "local ephemeral storage resource");
  }
  if (resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-")) {
    if (!Contains(kBytes, text)) refuse(byte_units + "hugepages resource");
  }
}

void ResourceFieldSelector(const doc::Node& selector, bool volume, const Path& path, std::string_view rule,
                           ObjectErrors* errors) {
  const std::string resource = StringField(&selector, "resource");
  if (volume && StringField(&selector, "containerName").empty()) {
    errors->Add(rule, Required(path.Child("containerName")), &selector);
  } else if (resource.empty()) {
    errors->Add(rule, Required(path.Child("resource")), &selector);
  } else if (!Contains(kResourcePaths, resource) && !resource.starts_with("limits.hugepages-") &&
             !resource.starts_with("requests.hugepages-")) {
    errors->Add(rule,
                NotSupported(path.Child("resource"), BadValue::String(resource), kResourcePaths),
                {selector.Find("resource"), &selector});
  }
  ValidateDivisor(resource, selector, path, rule, errors);
}

namespace {

// validateConfigMapKeySelector and validateSecretKeySelector (both name
// the object with ValidateSecretName: a DNS subdomain).
void ValidateKeySelector(const doc::Node& selector, const Path& path, ObjectErrors* errors) {
  const std::string name = StringField(&selector, "name");
  for (std::string& message : formats::Dns1123Subdomain(name)) {
    errors->Add(kRule, Invalid(path.Child("name"), BadValue::String(name), std::move(message)),
                {selector.Find("name"), &selector});
  }
  const std::string key = StringField(&selector, "key");
  if (key.empty()) {
    errors->Add(kRule, Required(path.Child("key")), &selector);
  } else {
    for (std::string& message : formats::ConfigMapKey(key)) {
      errors->Add(kRule, Invalid(path.Child("key"), BadValue::String(key), std::move(message)),
                  {selector.Find("key"), &selector});
    }
  }
}

void ValidateValueFrom(const doc::Node& var, const Path& path, const KubernetesRules& rules, ObjectErrors* errors) {
  const doc::Node* from = doc::At(&var, "valueFrom");
  if (from == nullptr) return;
  int sources = 0;
  if (const doc::Node* ref = doc::At(from, "fieldRef")) {
    ++sources;
    ObjectFieldSelector(*ref, kFieldPaths, path.Child("fieldRef"), kRule, errors);
  }
  if (const doc::Node* ref = doc::At(from, "resourceFieldRef")) {
    ++sources;
    ResourceFieldSelector(*ref, false, path.Child("resourceFieldRef"), kRule, errors);
  }
  if (const doc::Node* ref = doc::At(from, "configMapKeyRef")) {
    ++sources;
    ValidateKeySelector(*ref, path.Child("configMapKeyRef"), errors);
  }
  if (const doc::Node* ref = doc::At(from, "secretKeyRef")) {
    ++sources;
    ValidateKeySelector(*ref, path.Child("secretKeyRef"), errors);
  }
  if (rules.env_files && doc::At(from, "fileKeyRef") != nullptr) ++sources;
  if (sources == 0) {
    // From 1.35 upstream's text may name fileKeyRef too: not verified.
    errors->Add(kRule,
                Invalid(path, BadValue::String(""),
                        "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"),
                from);
  } else if (!StringField(&var, "value").empty()) {
    errors->Add(kRule, Invalid(path, BadValue::String(""), "may not be specified when `value` is not empty"),
                {var.Find("value"), from});
  } else if (sources > 1) {
    errors->Add(kRule, Invalid(path, BadValue::String(""), "may not have more than one field specified at a time"), from);
  }
}

// NameIsDNSSubdomain(name, prefix=true), as validateConfigMapEnvSource and
// validateSecretEnvSource call it: apimachinery's maskTrailingDash drops the
// last two bytes of a name ending in "-" and appends "a" (sic).
std::string MaskTrailingDash(std::string name) {
  if (name.size() > 1 && name.back() == '-') name = name.substr(0, name.size() - 2) + "a";
  return name;
}

void ValidateEnvSourceName(const doc::Node& source, const Path& path, ObjectErrors* errors) {
  const std::string name = StringField(&source, "name");
  if (name.empty()) {
    errors->Add(kRule, Required(path.Child("name")), &source);
    return;
  }
  for (std::string& message : formats::Dns1123Subdomain(MaskTrailingDash(name))) {
    errors->Add(kRule, Invalid(path.Child("name"), BadValue::String(name), std::move(message)),
                {source.Find("name"), &source});
  }
}

}  // namespace

void ValidateEnv(const doc::Node* env, const Path& path, const PodContext& pod) {
  const std::vector<doc::Node>& items = doc::Items(env);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& var = items[i];
    const Path item = path.Index(i);
    const std::string name = StringField(&var, "name");
    if (name.empty()) {
      pod.errors->Add(kRule, Required(item.Child("name")), {var.Find("name"), &var});
    } else {
      for (std::string& message : formats::RelaxedEnvVarName(name)) {
        pod.errors->Add(kRule, Invalid(item.Child("name"), BadValue::String(name), std::move(message)),
                        {var.Find("name"), &var});
      }
    }
    ValidateValueFrom(var, item.Child("valueFrom"), pod.rules, pod.errors);
  }
}

void ValidateEnvFrom(const doc::Node* env_from, const Path& path, const PodContext& pod) {
  const std::vector<doc::Node>& items = doc::Items(env_from);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& source = items[i];
    const Path item = path.Index(i);
    const std::string prefix = StringField(&source, "prefix");
    if (!prefix.empty()) {
      for (std::string& message : formats::RelaxedEnvVarName(prefix)) {
        pod.errors->Add(kRule, Invalid(item.Child("prefix"), BadValue::String(prefix), std::move(message)),
                        {source.Find("prefix"), &source});
      }
    }
    int sources = 0;
    if (const doc::Node* ref = doc::At(&source, "configMapRef")) {
      ++sources;
      ValidateEnvSourceName(*ref, item.Child("configMapRef"), pod.errors);
    }
    if (const doc::Node* ref = doc::At(&source, "secretRef")) {
      ++sources;
      ValidateEnvSourceName(*ref, item.Child("secretRef"), pod.errors);
    }
    // Upstream reports these at the list's path, not the item's.
    if (sources == 0) {
      pod.errors->Add(kRule, Invalid(path, BadValue::String(""), "must specify one of: `configMapRef` or `secretRef`"),
                      &source);
    } else if (sources > 1) {
      pod.errors->Add(kRule, Invalid(path, BadValue::String(""), "may not have more than one field specified at a time"),
                      &source);
    }
  }
}

}  // namespace tjr::admission::containers
