#include <map>
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/node_edit.h"
#include "admission/pod_parts.h"
#include "doc/path.h"

// Where a pod may be scheduled (pkg/apis/core/validation/validation.go,
// v1.34.0, the same through v1.36.0 with the gates on by default):
// validateAffinity, ValidateTolerations, validateTopologySpreadConstraints.
namespace tjr::admission::pod_parts {
namespace {

using containers::Forbidden;
using containers::Invalid;
using containers::NotSupported;
using containers::Required;
using validate::BadValue;


std::string Text(const doc::Node& value) { return value.is_string() ? value.string_value() : value.source_text(); }

// ValidateNodeSelectorRequirement.
void NodeSelectorRequirement(const doc::Node& req, bool allow_invalid_values, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "affinity";
  const std::string op = doc::StringAt(req, "operator");
  const std::vector<doc::Node>& values = doc::Items(doc::At(&req, "values"));
  const Path values_path = path.Child("values");
  if (op == "In" || op == "NotIn") {
    if (values.empty()) {
      errors->Add(kRule, Required(values_path, "must be specified when `operator` is 'In' or 'NotIn'"), ValueOrParent(req, "values"));
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!values.empty()) {
      errors->Add(kRule,
                  Forbidden(values_path, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                  ValueOrParent(req, "values"));
    }
  } else if (op == "Gt" || op == "Lt") {
    if (values.size() != 1) {
      errors->Add(kRule, Required(values_path, "must be specified single value when `operator` is 'Lt' or 'Gt'"),
                  ValueOrParent(req, "values"));
    }
  } else {
    errors->Add(kRule, Invalid(path.Child("operator"), BadValue::String(op), "not a valid selector operator"),
                ValueOrParent(req, "operator"));
  }
  ValidateLabelName(kRule, doc::StringAt(req, "key"), path.Child("key"), ValueOrParent(req, "key"), errors);
  if (allow_invalid_values) return;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::string& message : LabelValue(Text(values[i]))) {
      errors->Add(kRule, Invalid(values_path.Index(i), BadValue::String(Text(values[i])), std::move(message)), &values[i]);
    }
  }
}

// ValidateNodeFieldSelectorRequirement: only metadata.name, with one value.
void NodeFieldSelectorRequirement(const doc::Node& req, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "affinity";
  const std::string op = doc::StringAt(req, "operator");
  const std::vector<doc::Node>& values = doc::Items(doc::At(&req, "values"));
  if (op == "In" || op == "NotIn") {
    if (values.size() != 1) {
      errors->Add(kRule,
                  Required(path.Child("values"),
                           "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"),
                  ValueOrParent(req, "values"));
    }
  } else {
    errors->Add(kRule, Invalid(path.Child("operator"), BadValue::String(op), "not a valid selector operator"),
                ValueOrParent(req, "operator"));
  }
  const std::string key = doc::StringAt(req, "key");
  if (key != "metadata.name") {
    errors->Add(kRule, Invalid(path.Child("key"), BadValue::String(key), "not a valid field selector key"), ValueOrParent(req, "key"));
    return;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    // ValidateNodeName (NameIsDNSSubdomain).
    for (std::string& message : formats::Dns1123Subdomain(Text(values[i]))) {
      errors->Add(kRule, Invalid(path.Child("values").Index(i), BadValue::String(Text(values[i])), std::move(message)),
                  &values[i]);
    }
  }
}

// ValidateNodeSelectorTerm.
void NodeSelectorTerm(const doc::Node& term, bool allow_invalid_values, const Path& path, ObjectErrors* errors) {
  const std::vector<doc::Node>& expressions = doc::Items(doc::At(&term, "matchExpressions"));
  for (std::size_t j = 0; j < expressions.size(); ++j) {
    NodeSelectorRequirement(expressions[j], allow_invalid_values, path.Child("matchExpressions").Index(j), errors);
  }
  const std::vector<doc::Node>& fields = doc::Items(doc::At(&term, "matchFields"));
  for (std::size_t j = 0; j < fields.size(); ++j) {
    NodeFieldSelectorRequirement(fields[j], path.Child("matchFields").Index(j), errors);
  }
}

void Weight(const doc::Node& term, const Path& path, ObjectErrors* errors) {
  const std::int64_t weight = containers::IntField(&term, "weight");
  if (weight <= 0 || weight > 100) {
    errors->Add("affinity", Invalid(path.Child("weight"), BadValue::Int(weight), "must be in the range 1-100"),
                ValueOrParent(term, "weight"));
  }
}

// validateNodeAffinity.
void NodeAffinity(const doc::Node& affinity, const Path& path, ObjectErrors* errors) {
  if (const doc::Node* required = doc::At(&affinity, "requiredDuringSchedulingIgnoredDuringExecution")) {
    // ValidateNodeSelector; invalid label values are allowed only when an
    // existing pod had them (an update), never on create.
    const Path terms_path = path.Child("requiredDuringSchedulingIgnoredDuringExecution").Child("nodeSelectorTerms");
    const std::vector<doc::Node>& terms = doc::Items(doc::At(required, "nodeSelectorTerms"));
    if (terms.empty()) {
      errors->Add("affinity", Required(terms_path, "must have at least one node selector term"), required);
    }
    for (std::size_t i = 0; i < terms.size(); ++i) NodeSelectorTerm(terms[i], false, terms_path.Index(i), errors);
  }
  const Path preferred_path = path.Child("preferredDuringSchedulingIgnoredDuringExecution");
  const std::vector<doc::Node>& preferred =
      doc::Items(doc::At(&affinity, "preferredDuringSchedulingIgnoredDuringExecution"));
  for (std::size_t i = 0; i < preferred.size(); ++i) {
    Weight(preferred[i], preferred_path.Index(i), errors);
    // Preferred terms may hold any label value.
    const doc::Node* preference = doc::At(&preferred[i], "preference");
    if (preference != nullptr) NodeSelectorTerm(*preference, true, preferred_path.Index(i).Child("preference"), errors);
  }
}

// validateLabelKeys (matchLabelKeys, mismatchLabelKeys of an affinity term).
void LabelKeys(const doc::Node* keys, const doc::Node* selector, const Path& path, ObjectErrors* errors) {
  const std::vector<doc::Node>& items = doc::Items(keys);
  if (items.empty()) return;
  if (selector == nullptr) {
    errors->Add("affinity", Forbidden(path, "must not be specified when labelSelector is not set"), keys);
    return;
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    ValidateLabelName("affinity", Text(items[i]), path.Index(i), &items[i], errors);
  }
}

// validatePodAffinityTerm.
void PodAffinityTerm(const doc::Node& term, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "affinity";
  const doc::Node* selector = doc::At(&term, "labelSelector");
  ValidateLabelSelector(kRule, selector, path.Child("labelSelector"), errors);
  ValidateLabelSelector(kRule, doc::At(&term, "namespaceSelector"), path.Child("namespaceSelector"), errors);
  for (const doc::Node& name : doc::Items(doc::At(&term, "namespaces"))) {
    // ValidateNamespaceName, reported at "namespace" as upstream does.
    for (std::string& message : formats::Dns1123Label(Text(name))) {
      errors->Add(kRule, Invalid(path.Child("namespace"), BadValue::String(Text(name)), std::move(message)), &name);
    }
  }
  // validateMatchLabelKeysAndMismatchLabelKeys.
  const doc::Node* match_keys = doc::At(&term, "matchLabelKeys");
  const doc::Node* mismatch_keys = doc::At(&term, "mismatchLabelKeys");
  LabelKeys(match_keys, selector, path.Child("matchLabelKeys"), errors);
  LabelKeys(mismatch_keys, selector, path.Child("mismatchLabelKeys"), errors);
  const std::vector<doc::Node>& matches = doc::Items(match_keys);
  if (selector != nullptr) {
    std::map<std::string, std::size_t> match_index;
    for (std::size_t i = 0; i < matches.size(); ++i) match_index[Text(matches[i])] = i;
    std::set<std::string> selector_keys;
    if (const doc::Node* labels = doc::At(selector, "matchLabels"); labels != nullptr && labels->is_mapping()) {
      for (const doc::Field& label : labels->fields()) selector_keys.insert(label.key);
    }
    for (const doc::Node& expr : doc::Items(doc::At(selector, "matchExpressions"))) {
      const std::string key = doc::StringAt(expr, "key");
      if (auto found = match_index.find(key); found != match_index.end() && selector_keys.contains(key)) {
        // Upstream indexes the term's path, not matchLabelKeys'.
        errors->Add(kRule,
                    Invalid(path.Index(found->second), BadValue::String(key),
                            "exists in both matchLabelKeys and labelSelector"),
                    &matches[found->second]);
      }
      selector_keys.insert(key);
    }
  }
  std::set<std::string> mismatches;
  for (const doc::Node& key : doc::Items(mismatch_keys)) mismatches.insert(Text(key));
  for (std::size_t i = 0; i < matches.size(); ++i) {
    if (mismatches.contains(Text(matches[i]))) {
      errors->Add(kRule,
                  Invalid(path.Child("matchLabelKeys").Index(i), BadValue::String(Text(matches[i])),
                          "exists in both matchLabelKeys and mismatchLabelKeys"),
                  &matches[i]);
    }
  }
  const std::string topology_key = doc::StringAt(term, "topologyKey");
  if (topology_key.empty()) {
    errors->Add(kRule, Required(path.Child("topologyKey"), "can not be empty"), ValueOrParent(term, "topologyKey"));
  }
  ValidateLabelName(kRule, topology_key, path.Child("topologyKey"), ValueOrParent(term, "topologyKey"), errors);
}

// validatePodAffinity and validatePodAntiAffinity (the same checks).
void PodAffinity(const doc::Node& affinity, const Path& path, ObjectErrors* errors) {
  const Path required_path = path.Child("requiredDuringSchedulingIgnoredDuringExecution");
  const std::vector<doc::Node>& required = doc::Items(doc::At(&affinity, "requiredDuringSchedulingIgnoredDuringExecution"));
  for (std::size_t i = 0; i < required.size(); ++i) PodAffinityTerm(required[i], required_path.Index(i), errors);
  const Path preferred_path = path.Child("preferredDuringSchedulingIgnoredDuringExecution");
  const std::vector<doc::Node>& preferred =
      doc::Items(doc::At(&affinity, "preferredDuringSchedulingIgnoredDuringExecution"));
  for (std::size_t j = 0; j < preferred.size(); ++j) {
    Weight(preferred[j], preferred_path.Index(j), errors);
    const doc::Node* term = doc::At(&preferred[j], "podAffinityTerm");
    static const doc::Node kEmpty = doc::Node::Mapping();
    PodAffinityTerm(term != nullptr ? *term : kEmpty, preferred_path.Index(j).Child("podAffinityTerm"), errors);
  }
}

}  // namespace

void ValidateAffinity(const doc::Node* affinity, const Path& path, ObjectErrors* errors) {
  if (affinity == nullptr) return;
  if (const doc::Node* node = doc::At(affinity, "nodeAffinity")) NodeAffinity(*node, path.Child("nodeAffinity"), errors);
  if (const doc::Node* pod = doc::At(affinity, "podAffinity")) PodAffinity(*pod, path.Child("podAffinity"), errors);
  if (const doc::Node* anti = doc::At(affinity, "podAntiAffinity")) {
    PodAffinity(*anti, path.Child("podAntiAffinity"), errors);
  }
}

void ValidateTolerations(const doc::Node* tolerations, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "tolerations";
  const std::vector<doc::Node>& items = doc::Items(tolerations);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& toleration = items[i];
    const Path item_path = path.Index(i);
    const std::string key = doc::StringAt(toleration, "key");
    const std::string op = doc::StringAt(toleration, "operator");
    const std::string value = doc::StringAt(toleration, "value");
    const std::string effect = doc::StringAt(toleration, "effect");
    if (!key.empty()) ValidateLabelName(kRule, key, item_path.Child("key"), ValueOrParent(toleration, "key"), errors);
    // An empty key with Exists (and no value) matches every taint.
    if (key.empty() && op != "Exists") {
      errors->Add(kRule,
                  Invalid(item_path.Child("operator"), BadValue::String(op),
                          "operator must be Exists when `key` is empty, which means \"match all values and all keys\""),
                  ValueOrParent(toleration, "operator"));
    }
    if (containers::Has(&toleration, "tolerationSeconds") && effect != "NoExecute") {
      errors->Add(kRule,
                  Invalid(item_path.Child("effect"), BadValue::String(effect),
                          "effect must be 'NoExecute' when `tolerationSeconds` is set"),
                  ValueOrParent(toleration, "effect"));
    }
    // Upstream reports the value's errors at "operator".
    if (op == "Equal" || op.empty()) {
      std::string joined;
      for (const std::string& message : LabelValue(value)) joined += (joined.empty() ? "" : ";") + message;
      if (!joined.empty()) {
        errors->Add(kRule, Invalid(item_path.Child("operator"), BadValue::String(value), joined), ValueOrParent(toleration, "value"));
      }
    } else if (op == "Exists") {
      if (!value.empty()) {
        errors->Add(kRule,
                    Invalid(item_path.Child("operator"), BadValue::String(value),
                            "value must be empty when `operator` is 'Exists'"),
                    ValueOrParent(toleration, "value"));
      }
    } else {
      errors->Add(kRule, NotSupported(item_path.Child("operator"), BadValue::String(op), {"Equal", "Exists"}),
                  ValueOrParent(toleration, "operator"));
    }
    // validateTaintEffect with allowEmpty: an empty effect matches all.
    if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute") {
      errors->Add(kRule,
                  NotSupported(item_path.Child("effect"), BadValue::String(effect),
                               {"NoSchedule", "PreferNoSchedule", "NoExecute"}),
                  ValueOrParent(toleration, "effect"));
    }
  }
}

void ValidateTopologySpreadConstraints(const doc::Node* constraints, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "topology-spread";
  const std::vector<doc::Node>& items = doc::Items(constraints);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& constraint = items[i];
    const Path item_path = path.Index(i);
    const std::int64_t max_skew = containers::IntField(&constraint, "maxSkew");
    if (max_skew <= 0) {
      errors->Add(kRule, Invalid(item_path.Child("maxSkew"), BadValue::Int(max_skew), "must be greater than zero"),
                  ValueOrParent(constraint, "maxSkew"));
    }
    const std::string topology_key = doc::StringAt(constraint, "topologyKey");
    if (topology_key.empty()) {
      errors->Add(kRule, Required(item_path.Child("topologyKey"), "can not be empty"), ValueOrParent(constraint, "topologyKey"));
    }
    const std::string action = doc::StringAt(constraint, "whenUnsatisfiable");
    if (action != "DoNotSchedule" && action != "ScheduleAnyway") {
      errors->Add(kRule,
                  NotSupported(item_path.Child("whenUnsatisfiable"), BadValue::String(action),
                               {"DoNotSchedule", "ScheduleAnyway"}),
                  ValueOrParent(constraint, "whenUnsatisfiable"));
    }
    // ValidateSpreadConstraintNotRepeat: against the later constraints.
    for (std::size_t j = i + 1; j < items.size(); ++j) {
      if (doc::StringAt(items[j], "topologyKey") == topology_key &&
          doc::StringAt(items[j], "whenUnsatisfiable") == action) {
        errors->Add(kRule,
                    containers::Duplicate(item_path.Child("{topologyKey, whenUnsatisfiable}"),
                                          BadValue::String("{" + topology_key + ", " + action + "}")),
                    &constraint);
        break;
      }
    }
    if (const doc::Node* min_domains = doc::At(&constraint, "minDomains")) {
      const std::int64_t value = min_domains->is_int() ? min_domains->int_value() : 0;
      if (value <= 0) {
        errors->Add(kRule, Invalid(item_path.Child("minDomains"), BadValue::Int(value), "must be greater than zero"),
                    min_domains);
      }
      if (action != "DoNotSchedule") {
        errors->Add(kRule,
                    Invalid(item_path.Child("minDomains"), BadValue::Int(value),
                            "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + action),
                    min_domains);
      }
    }
    for (std::string_view policy_key : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
      const doc::Node* policy = doc::At(&constraint, policy_key);
      if (policy == nullptr) continue;
      const std::string policy_value = Text(*policy);
      if (policy_value != "Honor" && policy_value != "Ignore") {
        errors->Add(kRule,
                    NotSupported(item_path.Child(policy_key), BadValue::String(policy_value), {"Honor", "Ignore"}),
                    policy);
      }
    }
    // validateMatchLabelKeysInTopologySpread.
    const doc::Node* selector = doc::At(&constraint, "labelSelector");
    const doc::Node* keys = doc::At(&constraint, "matchLabelKeys");
    const std::vector<doc::Node>& key_items = doc::Items(keys);
    if (!key_items.empty()) {
      const Path keys_path = item_path.Child("matchLabelKeys");
      std::set<std::string> selector_keys;
      if (selector != nullptr) {
        if (const doc::Node* labels = doc::At(selector, "matchLabels"); labels != nullptr && labels->is_mapping()) {
          for (const doc::Field& label : labels->fields()) selector_keys.insert(label.key);
        }
        for (const doc::Node& expr : doc::Items(doc::At(selector, "matchExpressions"))) {
          selector_keys.insert(doc::StringAt(expr, "key"));
        }
      } else {
        errors->Add(kRule, Forbidden(keys_path, "must not be specified when labelSelector is not set"), keys);
      }
      for (std::size_t k = 0; k < key_items.size(); ++k) {
        const std::string key = Text(key_items[k]);
        ValidateLabelName(kRule, key, keys_path.Index(k), &key_items[k], errors);
        if (selector_keys.contains(key)) {
          errors->Add(kRule,
                      Invalid(keys_path.Index(k), BadValue::String(key), "exists in both matchLabelKeys and labelSelector"),
                      &key_items[k]);
        }
      }
    }
    ValidateLabelSelector(kRule, selector, item_path.Child("labelSelector"), errors);
  }
}

}  // namespace tjr::admission::pod_parts
