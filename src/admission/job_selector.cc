// The Job's selector checks (pkg/apis/batch/validation/validation.go
// validateGeneratedSelector and ValidateJobSpec at v1.34.0; metav1
// validation's ValidateLabelSelector, and LabelSelectorAsSelector with
// labels.Selector.Matches, from apimachinery v0.34).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/job_parts.h"
#include "admission/jobset_parts.h"
#include "admission/object_meta.h"
#include "doc/path.h"

namespace tjr::admission::job_parts {
namespace {

using containers::Forbidden;
using containers::Invalid;
using containers::Required;
using validate::BadValue;

constexpr std::string_view kRule = "selector";

using Labels = std::map<std::string, std::string>;

Labels LabelsOf(const doc::Node* labels) {
  Labels out;
  if (labels == nullptr) return out;
  for (const doc::Field& field : labels->fields()) {
    if (field.value.is_string()) out[field.key] = field.value.string_value();
  }
  return out;
}

std::vector<std::string> StringsOf(const doc::Node* list) {
  std::vector<std::string> out;
  for (const doc::Node& item : doc::Items(list)) out.push_back(item.is_string() ? item.string_value() : "");
  return out;
}

struct Requirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
};

bool ValidKeyAndValues(const Requirement& requirement) {
  if (!formats::QualifiedName(requirement.key).empty()) return false;
  for (const std::string& value : requirement.values) {
    if (!jobset_parts::LabelValueErrors(value).empty()) return false;
  }
  return true;
}

// LabelSelectorAsSelector: the requirements, or nullopt for an error (an
// unknown operator, a values count the operator refuses, an invalid key
// or value); the caller then skips the match.
std::optional<std::vector<Requirement>> AsSelector(const doc::Node& selector) {
  std::vector<Requirement> out;
  for (const auto& [key, value] : LabelsOf(doc::At(&selector, "matchLabels"))) out.push_back({key, "=", {value}});
  for (const doc::Node& expression : doc::Items(doc::At(&selector, "matchExpressions"))) {
    Requirement requirement{doc::StringAt(expression, "key"), doc::StringAt(expression, "operator"),
                            StringsOf(doc::At(&expression, "values"))};
    const bool set_op = requirement.op == "In" || requirement.op == "NotIn";
    const bool exists_op = requirement.op == "Exists" || requirement.op == "DoesNotExist";
    if (!set_op && !exists_op) return std::nullopt;
    if (set_op && requirement.values.empty()) return std::nullopt;
    if (exists_op && !requirement.values.empty()) return std::nullopt;
    out.push_back(std::move(requirement));
  }
  for (const Requirement& requirement : out) {
    if (!ValidKeyAndValues(requirement)) return std::nullopt;
  }
  return out;
}

bool Matches(const std::vector<Requirement>& requirements, const Labels& labels) {
  for (const Requirement& requirement : requirements) {
    const auto found = labels.find(requirement.key);
    const bool has = found != labels.end();
    const bool listed =
        has && std::find(requirement.values.begin(), requirement.values.end(), found->second) != requirement.values.end();
    if (requirement.op == "=" || requirement.op == "In") {
      if (!listed) return false;
    } else if (requirement.op == "NotIn") {
      if (listed) return false;
    } else if (requirement.op == "Exists") {
      if (!has) return false;
    } else if (requirement.op == "DoesNotExist") {
      if (has) return false;
    }
  }
  return true;
}

std::string GoStringSlice(const doc::Node* values) {
  if (values == nullptr) return "[]string(nil)";
  std::string out = "[]string{";
  bool first = true;
  for (const std::string& value : StringsOf(values)) {
    out += (first ? "" : ", ") + BadValue::String(value).text;
    first = false;
  }
  return out + "}";
}

// %#v of the metav1.LabelSelector a *LabelSelector BadValue points to.
std::string GoLabelSelector(const doc::Node& selector) {
  std::string out = "v1.LabelSelector{MatchLabels:" + GoStringMap(doc::At(&selector, "matchLabels")) +
                    ", MatchExpressions:";
  const doc::Node* expressions = doc::At(&selector, "matchExpressions");
  if (expressions == nullptr) return out + "[]v1.LabelSelectorRequirement(nil)}";
  out += "[]v1.LabelSelectorRequirement{";
  bool first = true;
  for (const doc::Node& expression : doc::Items(expressions)) {
    out += std::string(first ? "" : ", ") + "v1.LabelSelectorRequirement{Key:" +
           BadValue::String(doc::StringAt(expression, "key")).text +
           ", Operator:" + BadValue::String(doc::StringAt(expression, "operator")).text +
           ", Values:" + GoStringSlice(doc::At(&expression, "values")) + "}";
    first = false;
  }
  return out + "}}";
}

// ValidateHasLabel: the template's label `key` must be `expected`.
void HasLabel(const doc::Node* template_metadata, std::string_view key, const std::string& expected,
              ObjectErrors* errors) {
  const Path path = Path("spec").Child("template").Child("metadata").Child("labels").Key(key);
  const doc::Node* labels = doc::At(template_metadata, "labels");
  const doc::Node* value = labels != nullptr ? labels->Find(key) : nullptr;
  if (value == nullptr) {
    errors->Add(kRule, Required(path, "must be '" + expected + "'"), {labels, template_metadata});
    return;
  }
  if (!value->is_string() || value->string_value() != expected) {
    errors->Add(kRule, Invalid(path, BadValue::Json(GoStringMap(labels)), "must be '" + expected + "'"),
                {value, labels});
  }
}

// ValidateLabelSelectorRequirement (AllowInvalidLabelValueInSelector is
// false on create).
void ValidateRequirement(const doc::Node& expression, const Path& path, ObjectErrors* errors) {
  const std::string op = doc::StringAt(expression, "operator");
  const doc::Node* values = doc::At(&expression, "values");
  const std::size_t count = doc::Items(values).size();
  if (op == "In" || op == "NotIn") {
    if (count == 0) {
      errors->Add(kRule, Required(path.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"),
                  &expression);
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (count > 0) {
      errors->Add(kRule,
                  Forbidden(path.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                  {values, &expression});
    }
  } else {
    errors->Add(kRule, Invalid(path.Child("operator"), BadValue::String(op), "not a valid selector operator"),
                {doc::At(&expression, "operator"), &expression});
  }
  const std::string key = doc::StringAt(expression, "key");
  for (const std::string& message : formats::QualifiedName(key)) {
    errors->Add(kRule, Invalid(path.Child("key"), BadValue::String(key), message),
                {doc::At(&expression, "key"), &expression});
  }
  std::size_t index = 0;
  for (const doc::Node& value : doc::Items(values)) {
    const std::string text = value.is_string() ? value.string_value() : "";
    for (const std::string& message : jobset_parts::LabelValueErrors(text)) {
      errors->Add(kRule, Invalid(path.Child("values").Index(index), BadValue::String(text), message),
                  {&value, &expression});
    }
    ++index;
  }
}

}  // namespace

std::string GoStringMap(const doc::Node* labels) {
  if (labels == nullptr) return "map[string]string(nil)";
  std::string out = "map[string]string{";
  bool first = true;
  for (const auto& [key, value] : LabelsOf(labels)) {
    out += (first ? "" : ", ") + BadValue::String(key).text + ":" + BadValue::String(value).text;
    first = false;
  }
  return out + "}";
}

void ValidateGeneratedSelector(const doc::Node& job, ObjectErrors* errors) {
  const doc::Node* spec = doc::At(&job, "spec");
  const doc::Node* manual = doc::At(spec, "manualSelector");
  if (manual != nullptr && manual->is_bool() && manual->bool_value()) return;
  const doc::Node* selector = doc::At(spec, "selector");
  if (selector == nullptr) return;  // ValidateJobSpec reports it
  const doc::Node* metadata = doc::At(&job, "metadata");
  const std::string uid = doc::StringAt(metadata, "uid");
  const std::string name = doc::StringAt(metadata, "name");
  if (uid.empty()) errors->Add(kRule, Required(Path("metadata").Child("uid")), {metadata, &job});
  const doc::Node* template_metadata = doc::AtPath(spec, {"template", "metadata"});
  HasLabel(template_metadata, kLegacyControllerUidLabel, uid, errors);
  HasLabel(template_metadata, kLegacyJobNameLabel, name, errors);
  HasLabel(template_metadata, kControllerUidLabel, uid, errors);
  HasLabel(template_metadata, kJobNameLabel, name, errors);
  const Labels expected = {{std::string(kControllerUidLabel), uid},
                           {std::string(kJobNameLabel), name},
                           {std::string(kLegacyControllerUidLabel), uid},
                           {std::string(kLegacyJobNameLabel), name}};
  const std::optional<std::vector<Requirement>> requirements = AsSelector(*selector);
  if (requirements && !Matches(*requirements, expected)) {
    errors->Add(kRule,
                Invalid(Path("spec").Child("selector"), BadValue::Json(GoLabelSelector(*selector)),
                        "`selector` not auto-generated"),
                {selector, spec});
  }
}

void ValidateSpecSelector(const doc::Node& spec, ObjectErrors* errors) {
  const Path path = Path("spec").Child("selector");
  const doc::Node* selector = doc::At(&spec, "selector");
  if (selector == nullptr) {
    errors->Add(kRule, Required(path), &spec);
  } else {
    ValidateLabels(doc::At(selector, "matchLabels"), path.Child("matchLabels"), errors);
    std::size_t index = 0;
    for (const doc::Node& expression : doc::Items(doc::At(selector, "matchExpressions"))) {
      ValidateRequirement(expression, path.Child("matchExpressions").Index(index++), errors);
    }
  }
  // LabelSelectorAsSelector(nil) is labels.Nothing(), which matches nothing.
  const doc::Node* labels = doc::AtPath(&spec, {"template", "metadata", "labels"});
  const std::optional<std::vector<Requirement>> requirements =
      selector != nullptr ? AsSelector(*selector) : std::optional<std::vector<Requirement>>{};
  if (selector == nullptr || (requirements && !Matches(*requirements, LabelsOf(labels)))) {
    errors->Add(kRule,
                Invalid(Path("spec").Child("template").Child("metadata").Child("labels"),
                        BadValue::Json(GoStringMap(labels)), "`selector` does not match template `labels`"),
                {labels, doc::AtPath(&spec, {"template", "metadata"}), &spec});
  }
}

}  // namespace tjr::admission::job_parts
