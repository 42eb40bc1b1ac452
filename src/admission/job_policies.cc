// The Job's policies (pkg/apis/batch/validation/validation.go at v1.34.0,
// the same for a create at v1.35.0 and v1.36.0): validatePodFailurePolicy
// and its rules, the successPolicy checks of validateJobSpec with
// validateSuccessPolicy and validateIndexesFormat, and
// validatePodReplacementPolicy. Value sets are listed in sets.List order.
#include <set>
#include <string>
#include <vector>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/job_parts.h"
#include "doc/path.h"

namespace tjr::admission::job_parts {
namespace {

using containers::Duplicate;
using containers::Invalid;
using containers::NotSupported;
using containers::Required;
using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

constexpr std::string_view kPodFailurePolicy = "pod-failure-policy";
constexpr std::string_view kSuccessPolicy = "success-policy";
constexpr std::size_t kMaxRules = 20;            // maxPodFailurePolicyRules, maxSuccessPolicyRule
constexpr std::size_t kMaxExitCodes = 255;       // maxPodFailurePolicyOnExitCodesValues
constexpr std::size_t kMaxConditionPatterns = 20;
constexpr std::size_t kMaxSucceededIndexes = 64 * 1024;

const Path kSpec("spec");

FieldError TooMany(const Path& path, std::size_t count, std::size_t max) {
  return {ErrorType::kTooMany, path.String(), BadValue::Int(static_cast<std::int64_t>(count)),
          "must have at most " + std::to_string(max) + " items"};
}

// Go's %#v of a []int32 (nil when the field is absent).
std::string GoInt32Slice(const doc::Node* values) {
  if (values == nullptr) return "[]int32(nil)";
  std::string out = "[]int32{";
  bool first = true;
  for (const doc::Node& value : doc::Items(values)) {
    out += (first ? "" : ", ") + std::to_string(value.is_int() ? value.int_value() : 0);
    first = false;
  }
  return out + "}";
}

void ValidateOnExitCodes(const doc::Node& on_exit_codes, const Path& path, const std::set<std::string>& containers,
                         ObjectErrors* errors) {
  const std::string op = doc::StringAt(on_exit_codes, "operator");
  const doc::Node* op_node = doc::At(&on_exit_codes, "operator");
  if (op.empty()) {
    errors->Add(kPodFailurePolicy, Required(path.Child("operator"), "valid values: [\"In\" \"NotIn\"]"),
                {op_node, &on_exit_codes});
  } else if (op != "In" && op != "NotIn") {
    errors->Add(kPodFailurePolicy, NotSupported(path.Child("operator"), BadValue::String(op), {"In", "NotIn"}),
                {op_node, &on_exit_codes});
  }
  if (const doc::Node* name = doc::At(&on_exit_codes, "containerName")) {
    const std::string text = name->is_string() ? name->string_value() : "";
    if (containers.count(text) == 0) {
      errors->Add(kPodFailurePolicy,
                  Invalid(path.Child("containerName"), BadValue::String(text),
                          "must be one of the container or initContainer names in the pod template"),
                  {name, &on_exit_codes});
    }
  }
  const Path values_path = path.Child("values");
  const doc::Node* values = doc::At(&on_exit_codes, "values");
  const std::vector<doc::Node>& items = doc::Items(values);
  if (items.empty()) {
    errors->Add(kPodFailurePolicy,
                Invalid(values_path, BadValue::Json(GoInt32Slice(values)), "at least one value is required"),
                {values, &on_exit_codes});
  } else if (items.size() > kMaxExitCodes) {
    errors->Add(kPodFailurePolicy, TooMany(values_path, items.size(), kMaxExitCodes), {values, &on_exit_codes});
  }
  bool ordered = true;
  std::set<std::int64_t> seen;
  for (std::size_t j = 0; j < items.size(); ++j) {
    const std::int64_t code = items[j].is_int() ? items[j].int_value() : 0;
    if (op == "In" && code == 0) {
      errors->Add(kPodFailurePolicy,
                  Invalid(values_path.Index(j), BadValue::Int(code), "must not be 0 for the In operator"),
                  {&items[j], values});
    }
    if (!seen.insert(code).second) {
      errors->Add(kPodFailurePolicy, Duplicate(values_path.Index(j), BadValue::Int(code)), {&items[j], values});
    }
    if (j > 0 && items[j - 1].is_int() && items[j - 1].int_value() > code) ordered = false;
  }
  if (!ordered) {
    errors->Add(kPodFailurePolicy, Invalid(values_path, BadValue::Json(GoInt32Slice(values)), "must be ordered"),
                {values, &on_exit_codes});
  }
}

void ValidateOnPodConditions(const doc::Node& patterns, const Path& path, ObjectErrors* errors) {
  if (patterns.size() > kMaxConditionPatterns) {
    errors->Add(kPodFailurePolicy, TooMany(path, patterns.size(), kMaxConditionPatterns), &patterns);
  }
  std::size_t j = 0;
  for (const doc::Node& pattern : doc::Items(&patterns)) {
    const Path at = path.Index(j++);
    const std::string type = doc::StringAt(pattern, "type");
    for (const std::string& message : formats::QualifiedName(type)) {
      errors->Add(kPodFailurePolicy, Invalid(at.Child("type"), BadValue::String(type), message),
                  {doc::At(&pattern, "type"), &pattern});
    }
    const std::string status = doc::StringAt(pattern, "status");
    if (status.empty()) {
      errors->Add(kPodFailurePolicy, Required(at.Child("status"), "valid values: [\"False\" \"True\" \"Unknown\"]"),
                  &pattern);
    } else if (status != "False" && status != "True" && status != "Unknown") {
      errors->Add(kPodFailurePolicy,
                  NotSupported(at.Child("status"), BadValue::String(status), {"False", "True", "Unknown"}),
                  {doc::At(&pattern, "status"), &pattern});
    }
  }
}

void ValidateRule(const doc::Node& spec, const doc::Node& rule, const Path& path,
                  const std::set<std::string>& containers, ObjectErrors* errors) {
  const std::string action = doc::StringAt(rule, "action");
  const doc::Node* action_node = doc::At(&rule, "action");
  if (action.empty()) {
    errors->Add(kPodFailurePolicy,
                Required(path.Child("action"), "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]"),
                {action_node, &rule});
  } else if (action == "FailIndex") {
    if (doc::At(&spec, "backoffLimitPerIndex") == nullptr) {
      errors->Add(kPodFailurePolicy,
                  Invalid(path.Child("action"), BadValue::String(action), "requires the backoffLimitPerIndex to be set"),
                  {action_node, &rule});
    }
  } else if (action != "Count" && action != "FailJob" && action != "Ignore") {
    errors->Add(kPodFailurePolicy,
                NotSupported(path.Child("action"), BadValue::String(action), {"Count", "FailIndex", "FailJob", "Ignore"}),
                {action_node, &rule});
  }
  const doc::Node* on_exit_codes = doc::At(&rule, "onExitCodes");
  const doc::Node* on_pod_conditions = doc::At(&rule, "onPodConditions");
  const bool has_conditions = !doc::Items(on_pod_conditions).empty();
  if (on_exit_codes != nullptr) ValidateOnExitCodes(*on_exit_codes, path.Child("onExitCodes"), containers, errors);
  if (has_conditions) ValidateOnPodConditions(*on_pod_conditions, path.Child("onPodConditions"), errors);
  if (on_exit_codes != nullptr && has_conditions) {
    errors->Add(kPodFailurePolicy,
                Invalid(path, BadValue::Omit(), "specifying both OnExitCodes and OnPodConditions is not supported"),
                &rule);
  }
  if (on_exit_codes == nullptr && !has_conditions) {
    errors->Add(kPodFailurePolicy,
                Invalid(path, BadValue::Omit(), "specifying one of OnExitCodes and OnPodConditions is required"),
                &rule);
  }
}

// strconv.Atoi: an optional sign and decimal digits within int64.
std::optional<std::int64_t> Atoi(std::string_view text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  if (i == text.size()) return std::nullopt;
  std::int64_t value = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    if (value > (INT64_MAX - (text[i] - '0')) / 10) return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return negative ? -value : value;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

struct Interval {
  std::int64_t first = 0, last = 0;
};

// parseIndexInterval: "x" or "x-y" below `completions`, x < y.
std::optional<Interval> ParseInterval(std::string_view text, std::int64_t completions, std::string* error) {
  const std::vector<std::string_view> limits = Split(text, '-');
  if (limits.size() > 2) {
    *error = "the fragment " + BadValue::String(text).text +
             " violates the requirement that an index interval can have at most two parts separated by '-'";
    return std::nullopt;
  }
  Interval out;
  for (std::size_t i = 0; i < limits.size(); ++i) {
    const std::optional<std::int64_t> value = Atoi(limits[i]);
    if (!value) {
      *error = "cannot convert string to integer for index: " + BadValue::String(limits[i]).text;
      return std::nullopt;
    }
    if (*value >= completions) {
      *error = "too large index: " + BadValue::String(limits[i]).text;
      return std::nullopt;
    }
    (i == 0 ? out.first : out.last) = *value;
  }
  if (limits.size() == 1) {
    out.last = out.first;
  } else if (out.first >= out.last) {
    *error = "non-increasing order, previous: " + std::to_string(out.first) + ", current: " + std::to_string(out.last);
    return std::nullopt;
  }
  return out;
}

// validateIndexesFormat: the number of indexes, or nullopt with `error`.
std::optional<std::int64_t> IndexesCount(std::string_view indexes, std::int64_t completions, std::string* error) {
  if (indexes.empty()) return 0;
  std::optional<std::int64_t> last;
  std::int64_t total = 0;
  for (std::string_view text : Split(indexes, ',')) {
    const std::optional<Interval> interval = ParseInterval(text, completions, error);
    if (!interval) return std::nullopt;
    if (last && *last >= interval->first) {
      *error = "non-increasing order, previous: " + std::to_string(*last) + ", current: " +
               std::to_string(interval->first);
      return std::nullopt;
    }
    total += interval->last - interval->first + 1;
    last = interval->last;
  }
  return total;
}

std::string GoPointer(std::string_view type, bool set) {
  return "(*" + std::string(type) + ")(" + (set ? "<address>" : "nil") + ")";
}

// %#v of the batch.SuccessPolicy a "requires indexed completion mode"
// error prints: its pointers print as addresses, which differ per request.
std::string GoSuccessPolicy(const doc::Node& policy) {
  const doc::Node* rules = doc::At(&policy, "rules");
  std::string out = "batch.SuccessPolicy{Rules:";
  if (rules == nullptr) return out + "[]batch.SuccessPolicyRule(nil)}";
  out += "[]batch.SuccessPolicyRule{";
  bool first = true;
  for (const doc::Node& rule : doc::Items(rules)) {
    out += std::string(first ? "" : ", ") + "batch.SuccessPolicyRule{SucceededIndexes:" +
           GoPointer("string", doc::At(&rule, "succeededIndexes") != nullptr) +
           ", SucceededCount:" + GoPointer("int32", doc::At(&rule, "succeededCount") != nullptr) + "}";
    first = false;
  }
  return out + "}}";
}

void ValidateSuccessRule(const doc::Node& spec, const doc::Node& rule, const Path& path, ObjectErrors* errors) {
  const doc::Node* indexes = doc::At(&rule, "succeededIndexes");
  const std::optional<std::int64_t> count = IntAt(&rule, "succeededCount");
  // The rule reads *spec.Completions; an Indexed Job without completions
  // was refused already (upstream would dereference nil).
  const std::optional<std::int64_t> completions = IntAt(&spec, "completions");
  if (!count && indexes == nullptr) {
    errors->Add(kSuccessPolicy,
                Required(path, "at least one of succeededCount or succeededIndexes must be specified"), &rule);
  }
  std::int64_t total = 0;
  if (indexes != nullptr && completions) {
    const Path at = path.Child("succeededIndexes");
    const std::string text = indexes->is_string() ? indexes->string_value() : "";
    if (text.size() > kMaxSucceededIndexes) {
      errors->Add(kSuccessPolicy,
                  FieldError{ErrorType::kTooLong, at.String(), BadValue::Omit(),
                             "may not be more than " + std::to_string(kMaxSucceededIndexes) + " bytes"},
                  {indexes, &rule});
    }
    std::string error;
    if (const std::optional<std::int64_t> counted = IndexesCount(text, *completions, &error)) {
      total = *counted;
    } else {
      errors->Add(kSuccessPolicy,
                  Invalid(at, BadValue::String(text), "error parsing succeededIndexes: " + error), {indexes, &rule});
    }
  }
  if (count && completions) {
    const Path at = path.Child("succeededCount");
    const doc::Node* node = doc::At(&rule, "succeededCount");
    if (*count < 0) {
      errors->Add(kSuccessPolicy, Invalid(at, BadValue::Int(*count), "must be greater than or equal to 0"),
                  {node, &rule});
    }
    if (*count > *completions) {
      errors->Add(kSuccessPolicy,
                  Invalid(at, BadValue::Int(*count),
                          "must be less than or equal to " + std::to_string(*completions) +
                              " (the number of specified completions)"),
                  {node, &rule});
    }
    if (indexes != nullptr && *count > total) {
      errors->Add(kSuccessPolicy,
                  Invalid(at, BadValue::Int(*count),
                          "must be less than or equal to " + std::to_string(total) +
                              " (the number of indexes in the specified succeededIndexes field)"),
                  {node, &rule});
    }
  }
}

}  // namespace

void ValidatePodFailurePolicy(const doc::Node& spec, ObjectErrors* errors) {
  const doc::Node* policy = doc::At(&spec, "podFailurePolicy");
  if (policy == nullptr) return;
  const Path rules_path = kSpec.Child("podFailurePolicy").Child("rules");
  const doc::Node* rules = doc::At(policy, "rules");
  if (doc::Items(rules).size() > kMaxRules) {
    errors->Add(kPodFailurePolicy, TooMany(rules_path, rules->size(), kMaxRules), {rules, policy});
  }
  std::set<std::string> containers;
  for (std::string_view list : {"containers", "initContainers"}) {
    for (const doc::Node& container : doc::Items(doc::AtPath(&spec, {"template", "spec", list}))) {
      containers.insert(doc::StringAt(container, "name"));
    }
  }
  std::size_t i = 0;
  for (const doc::Node& rule : doc::Items(rules)) ValidateRule(spec, rule, rules_path.Index(i++), containers, errors);
}

void ValidateSuccessPolicy(const doc::Node& spec, ObjectErrors* errors) {
  const doc::Node* policy = doc::At(&spec, "successPolicy");
  if (policy == nullptr) return;
  const Path path = kSpec.Child("successPolicy");
  if (doc::StringAt(spec, "completionMode") != "Indexed") {
    errors->Add(kSuccessPolicy,
                Invalid(path, BadValue::Json(GoSuccessPolicy(*policy)), "requires indexed completion mode"),
                {policy, &spec});
    return;
  }
  const Path rules_path = path.Child("rules");
  const doc::Node* rules = doc::At(policy, "rules");
  const std::size_t count = doc::Items(rules).size();
  if (count == 0) {
    errors->Add(kSuccessPolicy,
                Required(rules_path, "at least one rules must be specified when the successPolicy is specified"),
                {rules, policy});
  }
  if (count > kMaxRules) errors->Add(kSuccessPolicy, TooMany(rules_path, count, kMaxRules), {rules, policy});
  std::size_t i = 0;
  for (const doc::Node& rule : doc::Items(rules)) ValidateSuccessRule(spec, rule, rules_path.Index(i++), errors);
}

void ValidatePodReplacementPolicy(const doc::Node& spec, ObjectErrors* errors) {
  const doc::Node* node = doc::At(&spec, "podReplacementPolicy");
  if (node == nullptr) return;
  const std::string policy = node->is_string() ? node->string_value() : "";
  const Path path = kSpec.Child("podReplacementPolicy");
  if (doc::At(&spec, "podFailurePolicy") != nullptr) {
    if (policy != "Failed") {
      errors->Add("pod-replacement-policy", NotSupported(path, BadValue::String(policy), {"Failed"}), {node, &spec});
    }
  } else if (policy != "Failed" && policy != "TerminatingOrFailed") {
    errors->Add("pod-replacement-policy",
                NotSupported(path, BadValue::String(policy), {"Failed", "TerminatingOrFailed"}), {node, &spec});
  }
}

}  // namespace tjr::admission::job_parts
