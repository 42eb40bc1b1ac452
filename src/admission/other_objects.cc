// The ConfigMaps and PodGroups a TrainJob renders, as the API server
// admits their creation:
//   - ConfigMap: ValidateConfigMap (pkg/apis/core/validation/validation.go
//     at v1.34.0, the same at v1.35.0 and v1.36.0);
//   - PodGroup: the CRD's structural schema, the only admission it gets
//     without a scheduler's webhook: scheduler-plugins'
//     podgroups.scheduling.x-k8s.io v1alpha1 (manifests/coscheduling/crd.yaml:
//     minMember and scheduleTimeoutSeconds int32, minResources quantities;
//     no minimum, enum or required field) and Volcano's
//     podgroups.scheduling.volcano.sh v1beta1
//     (config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml: the
//     same plus minTaskMember int32 values, queue and priorityClassName
//     strings, networkTopology.mode hard|soft). The name rule of a custom
//     resource is NameIsDNSSubdomain. Type errors read as kube-openapi's,
//     which apiextensions-apiserver reports as field.TypeInvalid.
#include "admission/other_objects.h"

#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/object_meta.h"
#include "doc/path.h"
#include "gocompat/regexp.h"
#include "gocompat/strconv.h"

namespace tjr::admission {
namespace {

using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

// core.MaxSecretSize, which ConfigMaps share.
constexpr std::size_t kMaxConfigMapSize = 1024 * 1024;

void ValidateConfigMapKeys(const doc::Node* data, std::string_view bag, const doc::Node* other,
                           std::string_view other_bag, ObjectErrors* errors, std::size_t* total) {
  if (data == nullptr) return;
  for (const doc::Field& field : data->fields()) {
    const Path path = Path(bag).Key(field.key);
    for (const std::string& message : formats::ConfigMapKey(field.key)) {
      errors->Add("config-map-keys", containers::Invalid(path, BadValue::String(field.key), message),
                  {&field.value, data});
    }
    // Only the data side reports a key both bags hold.
    if (other_bag == "binaryData" && other != nullptr && other->Find(field.key) != nullptr) {
      errors->Add("config-map-keys",
                  containers::Invalid(path, BadValue::String(field.key), "duplicate of key present in binaryData"),
                  {&field.value, data});
    }
    // binaryData holds base64 text; its size is that of the decoded bytes.
    const std::string& text = field.value.is_string() ? field.value.string_value() : std::string();
    if (bag == "binaryData") {
      std::size_t padding = 0;
      for (std::size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) ++padding;
      *total += text.size() / 4 * 3 - std::min<std::size_t>(padding, 2);
    } else {
      *total += text.size();
    }
  }
}

// kube-openapi's type name of a value.
std::string_view JsonType(const doc::Node& value) {
  switch (value.kind()) {
    case doc::Kind::kBool: return "boolean";
    case doc::Kind::kInt: return "integer";
    case doc::Kind::kFloat: return "number";
    case doc::Kind::kString: return "string";
    case doc::Kind::kSequence: return "array";
    case doc::Kind::kMapping: return "object";
    case doc::Kind::kNull: break;
  }
  return "null";
}

FieldError TypeError(const std::string& path, std::string_view wanted, std::string_view got) {
  return {ErrorType::kTypeInvalid, path, BadValue::String(got),
          path + " in body must be of type " + std::string(wanted) + ": " + gocompat::Quote(got)};
}

// An integer field of format int32 (validate/type.go): a string or a list
// names the schema type; other values name the format and theirs.
void CheckInt32(const doc::Node& value, const std::string& path, ObjectErrors* errors) {
  if (value.is_null() || value.is_int()) return;
  if (value.is_float() && value.float_value() == static_cast<double>(static_cast<std::int64_t>(value.float_value()))) {
    return;  // an integral float is an integer
  }
  if (value.is_string() || value.is_sequence()) {
    errors->Add("pod-group", TypeError(path, "integer", JsonType(value)), &value);
  } else {
    errors->Add("pod-group", TypeError(path, "int32", value.is_float() ? "float64" : ""), &value);
  }
}

void CheckString(const doc::Node& value, const std::string& path, ObjectErrors* errors) {
  if (value.is_null() || value.is_string()) return;
  errors->Add("pod-group", TypeError(path, "string", JsonType(value)), &value);
}

// resource.Quantity's CRD pattern (x-kubernetes-int-or-string).
void CheckQuantity(const doc::Node& value, const std::string& path, ObjectErrors* errors) {
  static constexpr char kPattern[] =
      "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|"
      "(\\.[0-9]+))))?$";
  // Go's regexp, as the API server's OpenAPI pattern check: linear in the
  // value's length (std::regex recursed per character).
  static const gocompat::Regexp kQuantity = gocompat::Regexp::Compile(kPattern).value();
  if (value.is_null() || value.is_int()) return;
  if (!value.is_string()) {
    errors->Add("pod-group", TypeError(path, "integer,string", JsonType(value)), &value);
    return;
  }
  if (!kQuantity.Match(value.string_value())) {
    errors->Add("pod-group",
                containers::Invalid(Path(path), BadValue::String(value.string_value()),
                                    path + " in body should match '" + kPattern + "'"),
                &value);
  }
}

}  // namespace

void ValidateConfigMap(const doc::Node& config_map, const KubernetesRules& /*rules*/, ObjectErrors* errors) {
  ValidateObjectMeta(doc::At(&config_map, "metadata"), true, NameRule::kDns1123Subdomain, Path("metadata"), errors);
  const doc::Node* data = doc::At(&config_map, "data");
  const doc::Node* binary = doc::At(&config_map, "binaryData");
  std::size_t total = 0;
  ValidateConfigMapKeys(data, "data", binary, "binaryData", errors, &total);
  ValidateConfigMapKeys(binary, "binaryData", data, "data", errors, &total);
  if (total > kMaxConfigMapSize) {
    // field.NewPath(""): the error is about the whole object. Path.String
    // prints a root of no name as a subscript, "[]" (as in "ConfigMap
    // \"x\" is invalid: []: Too long: ...").
    errors->Add("config-map-size",
                FieldError{ErrorType::kTooLong, "[]", BadValue::Omit(),
                           "may not be more than " + std::to_string(kMaxConfigMapSize) + " bytes"},
                {data, binary, &config_map});
  }
}

void ValidatePodGroup(const doc::Node& pod_group, ObjectErrors* errors) {
  ValidateObjectMeta(doc::At(&pod_group, "metadata"), true, NameRule::kDns1123Subdomain, Path("metadata"), errors);
  const doc::Node* spec = doc::At(&pod_group, "spec");
  if (spec == nullptr) return;
  const bool volcano = doc::StringAt(pod_group, "apiVersion").starts_with("scheduling.volcano.sh/");
  if (const doc::Node* min_member = spec->Find("minMember")) CheckInt32(*min_member, "spec.minMember", errors);
  if (const doc::Node* resources = doc::At(spec, "minResources")) {
    for (const doc::Field& field : resources->fields()) {
      CheckQuantity(field.value, "spec.minResources." + field.key, errors);
    }
  }
  if (!volcano) {
    if (const doc::Node* timeout = spec->Find("scheduleTimeoutSeconds")) {
      CheckInt32(*timeout, "spec.scheduleTimeoutSeconds", errors);
    }
    return;
  }
  if (const doc::Node* members = doc::At(spec, "minTaskMember")) {
    for (const doc::Field& field : members->fields()) CheckInt32(field.value, "spec.minTaskMember." + field.key, errors);
  }
  for (std::string_view key : {"queue", "priorityClassName"}) {
    if (const doc::Node* value = spec->Find(key)) CheckString(*value, "spec." + std::string(key), errors);
  }
  if (const doc::Node* mode = doc::AtPath(spec, {"networkTopology", "mode"}); mode != nullptr && mode->is_string()) {
    if (mode->string_value() != "hard" && mode->string_value() != "soft") {
      errors->Add("pod-group",
                  containers::NotSupported(Path("spec.networkTopology.mode"), BadValue::String(mode->string_value()),
                                           {"hard", "soft"}),
                  mode);
    }
  }
}

}  // namespace tjr::admission
