#include "admission/object_meta.h"

#include <cctype>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/pod_parts.h"
#include "doc/path.h"

// apimachinery at v0.34: pkg/api/validation/objectmeta.go
// (ValidateObjectMetaAccessor, ValidateAnnotations), pkg/apis/meta/v1/
// validation/validation.go (ValidateLabels, ValidateLabelName,
// ValidateLabelSelector) and pkg/util/validation/validation.go
// (IsValidLabelValue, IsDNS1035Label).
namespace tjr::admission {
namespace {

using validate::BadValue;
using validate::ErrorType;

constexpr std::size_t kTotalAnnotationSizeLimit = 256 * (1 << 10);

constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
    "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
constexpr std::string_view kDns1035LabelMessage =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
    "is '[a-z]([-a-z0-9]*[a-z0-9])?')";

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// `(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?`, whole string.
bool MatchesLabelValue(std::string_view value) {
  if (value.empty()) return true;
  if (!IsAlnum(value.front()) || !IsAlnum(value.back())) return false;
  for (char c : value) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// IsDNS1035Label.
std::vector<std::string> Dns1035Label(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 63) out.emplace_back("must be no more than 63 characters");
  bool matches = !value.empty() && value.front() >= 'a' && value.front() <= 'z' &&
                 ((value.back() >= 'a' && value.back() <= 'z') || (value.back() >= '0' && value.back() <= '9'));
  for (char c : value) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) matches = false;
  }
  if (!matches) out.emplace_back(kDns1035LabelMessage);
  return out;
}

// maskTrailingDash: a generateName prefix may end in '-' (upstream replaces
// the last two characters by "a", its own quirk kept here).
std::string MaskTrailingDash(const std::string& name) {
  if (name.size() > 1 && name.back() == '-') return name.substr(0, name.size() - 2) + "a";
  return name;
}

// The ValidateNameFunc of `rule` (NameIsDNSSubdomain, NameIsDNSLabel,
// NameIsDNS1035Label).
std::vector<std::string> NameErrors(NameRule rule, const std::string& name, bool prefix) {
  const std::string value = prefix ? MaskTrailingDash(name) : name;
  switch (rule) {
    case NameRule::kDns1123Label: return formats::Dns1123Label(value);
    case NameRule::kDns1035Label: return Dns1035Label(value);
    case NameRule::kDns1123Subdomain: break;
  }
  return formats::Dns1123Subdomain(value);
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

namespace pod_parts {

std::vector<std::string> LabelValue(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 63) out.emplace_back("must be no more than 63 characters");
  if (!MatchesLabelValue(value)) out.emplace_back(kLabelValueMessage);
  return out;
}

void ValidateLabelName(std::string_view rule, const std::string& name, const Path& path, const doc::Node* at,
                       ObjectErrors* errors) {
  for (std::string& message : formats::QualifiedName(name)) {
    errors->Add(rule, containers::Invalid(path, BadValue::String(name), std::move(message)), at);
  }
}

void ValidateLabelMap(std::string_view rule, const doc::Node* labels, const Path& path, ObjectErrors* errors) {
  if (labels == nullptr || !labels->is_mapping()) return;
  // Go ranges over a map in random order; the document's order is kept.
  for (const doc::Field& label : labels->fields()) {
    ValidateLabelName(rule, label.key, path, &label.value, errors);
    const std::string value = label.value.is_string() ? label.value.string_value() : label.value.source_text();
    for (std::string& message : LabelValue(value)) {
      errors->Add(rule, containers::Invalid(path, BadValue::String(value), std::move(message)), &label.value);
    }
  }
}

void ValidateLabelSelector(std::string_view rule, const doc::Node* selector, const Path& path, ObjectErrors* errors) {
  if (selector == nullptr || !selector->is_mapping()) return;
  ValidateLabelMap(rule, doc::At(selector, "matchLabels"), path.Child("matchLabels"), errors);
  const std::vector<doc::Node>& expressions = doc::Items(doc::At(selector, "matchExpressions"));
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    // ValidateLabelSelectorRequirement.
    const doc::Node& expr = expressions[i];
    const Path expr_path = path.Child("matchExpressions").Index(i);
    const std::string op = doc::StringAt(expr, "operator");
    const std::vector<doc::Node>& values = doc::Items(doc::At(&expr, "values"));
    if (op == "In" || op == "NotIn") {
      if (values.empty()) {
        errors->Add(rule, containers::Required(expr_path.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"),
                    {expr.Find("values"), &expr});
      }
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (!values.empty()) {
        errors->Add(rule,
                    containers::Forbidden(expr_path.Child("values"),
                                          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                    {expr.Find("values"), &expr});
      }
    } else {
      errors->Add(rule, containers::Invalid(expr_path.Child("operator"), BadValue::String(op), "not a valid selector operator"),
                  {expr.Find("operator"), &expr});
    }
    ValidateLabelName(rule, doc::StringAt(expr, "key"), expr_path.Child("key"), expr.Find("key") ? expr.Find("key") : &expr,
                      errors);
    for (std::size_t v = 0; v < values.size(); ++v) {
      const std::string value = values[v].is_string() ? values[v].string_value() : values[v].source_text();
      for (std::string& message : LabelValue(value)) {
        errors->Add(rule, containers::Invalid(expr_path.Child("values").Index(v), BadValue::String(value), std::move(message)),
                    &values[v]);
      }
    }
  }
}

}  // namespace pod_parts

void ValidateLabels(const doc::Node* labels, const Path& path, ObjectErrors* errors) {
  pod_parts::ValidateLabelMap("labels", labels, path, errors);
}

void ValidateAnnotations(const doc::Node* annotations, const Path& path, ObjectErrors* errors) {
  if (annotations == nullptr || !annotations->is_mapping()) return;
  std::size_t total = 0;
  for (const doc::Field& annotation : annotations->fields()) {
    // A qualified name, except that case does not matter.
    for (std::string& message : formats::QualifiedName(Lower(annotation.key))) {
      errors->Add("annotations", containers::Invalid(path, BadValue::String(annotation.key), std::move(message)),
                  {&annotation.value, annotations});
    }
    total += annotation.key.size() +
             (annotation.value.is_string() ? annotation.value.string_value() : annotation.value.source_text()).size();
  }
  if (total > kTotalAnnotationSizeLimit) {
    // field.TooLong(fldPath, "", TotalAnnotationSizeLimitB).
    errors->Add("annotations",
                validate::FieldError{ErrorType::kTooLong, path.String(), BadValue::Omit(),
                                     "may not be more than " + std::to_string(kTotalAnnotationSizeLimit) + " bytes"},
                annotations);
  }
}

void ValidateObjectMeta(const doc::Node* metadata, bool namespaced, NameRule name_rule, const Path& path,
                        ObjectErrors* errors) {
  const std::string generate_name = doc::StringAt(metadata, "generateName");
  const std::string name = doc::StringAt(metadata, "name");
  if (!generate_name.empty()) {
    for (std::string& message : NameErrors(name_rule, generate_name, true)) {
      errors->Add("name", containers::Invalid(path.Child("generateName"), BadValue::String(generate_name), std::move(message)),
                  {doc::At(metadata, "generateName"), metadata});
    }
  }
  // The API server generates a name from generateName before validating;
  // only an object with neither lacks one.
  if (name.empty() && generate_name.empty()) {
    errors->Add("name", containers::Required(path.Child("name"), "name or generateName is required"), metadata);
  } else if (!name.empty()) {
    for (std::string& message : NameErrors(name_rule, name, false)) {
      errors->Add("name", containers::Invalid(path.Child("name"), BadValue::String(name), std::move(message)),
                  {doc::At(metadata, "name"), metadata});
    }
  }
  const std::string space = doc::StringAt(metadata, "namespace");
  if (namespaced) {
    // A namespaced object without one is created in the request's
    // namespace, which tjrender's output is applied with: nothing to check.
    if (!space.empty()) {
      for (std::string& message : formats::Dns1123Label(space)) {
        errors->Add("namespace", containers::Invalid(path.Child("namespace"), BadValue::String(space), std::move(message)),
                    {doc::At(metadata, "namespace"), metadata});
      }
    }
  } else if (!space.empty()) {
    errors->Add("namespace", containers::Forbidden(path.Child("namespace"), "not allowed on this type"),
                {doc::At(metadata, "namespace"), metadata});
  }
  ValidateLabels(doc::At(metadata, "labels"), path.Child("labels"), errors);
  ValidateAnnotations(doc::At(metadata, "annotations"), path.Child("annotations"), errors);
  // ownerReferences, finalizers and managedFields: tjrender writes none.
}

}  // namespace tjr::admission
