// The JobSet CRD's structural schema and CEL rules that a JobSet being
// created can break (config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml
// at v0.10.1, v0.11.0 — the same blob e68591e8 as v0.11.1 — and v0.12.0):
// required fields, enums, bounds, list-map keys, and the one CEL rule
// without oldSelf. The "Value is immutable" transition rules only apply to
// updates. The embedded Job template's schema is left to the Job's own
// validation (job.h), which the controller's Jobs go through.
#include <set>
#include <string>

#include "admission/jobset_parts.h"
#include "doc/path.h"

namespace tjr::admission::jobset_parts {
namespace {

using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

constexpr std::string_view kRule = "schema";

void Required(const doc::Node& object, std::string_view key, const Path& path, ObjectErrors* errors) {
  if (doc::At(&object, key) == nullptr) {
    errors->Add(kRule, FieldError{ErrorType::kRequired, path.Child(key).String(), BadValue::Omit(), ""}, &object);
  }
}

// An enum violation as kube-openapi reports it: field.NotSupported.
void Enum(const doc::Node* object, std::string_view key, std::initializer_list<std::string_view> allowed,
          const Path& path, ObjectErrors* errors) {
  const doc::Node* value = doc::At(object, key);
  if (value == nullptr || !value->is_string()) return;
  std::string supported;
  for (std::string_view name : allowed) {
    if (name == value->string_value()) return;
    if (!supported.empty()) supported += ", ";
    supported += BadValue::String(name).text;
  }
  errors->Add(kRule,
              FieldError{ErrorType::kNotSupported, path.Child(key).String(), BadValue::String(value->string_value()),
                         "supported values: " + supported},
              {value, object});
}

void MaxItems(const doc::Node* list, std::size_t max, const Path& path, ObjectErrors* errors) {
  if (list == nullptr || !list->is_sequence() || list->size() <= max) return;
  errors->Add(kRule,
              FieldError{ErrorType::kTooMany, path.String(), BadValue::Int(static_cast<std::int64_t>(list->size())),
                         "must have at most " + std::to_string(max) + " items"},
              list);
}

// x-kubernetes-list-type: map with key `name`: a second item with a name
// already seen is a Duplicate value, printed as Go's %#v of the key map.
void UniqueNames(const doc::Node* list, const Path& path, ObjectErrors* errors) {
  std::set<std::string> seen;
  std::size_t index = 0;
  for (const doc::Node& item : doc::Items(list)) {
    const std::string name = doc::StringAt(&item, "name");
    if (doc::At(&item, "name") != nullptr && !seen.insert(name).second) {
      errors->Add(kRule,
                  FieldError{ErrorType::kDuplicate, path.Index(index).String(),
                             BadValue::Json("map[string]interface {}{\"name\":" + BadValue::String(name).text + "}"),
                             ""},
                  {doc::At(&item, "name"), &item});
    }
    ++index;
  }
}

void CheckReplicatedJobs(const doc::Node& spec, const Path& path, ObjectErrors* errors) {
  const doc::Node* jobs = doc::At(&spec, "replicatedJobs");
  std::size_t index = 0;
  for (const doc::Node& job : doc::Items(jobs)) {
    const Path at = path.Index(index++);
    Required(job, "name", at, errors);
    Required(job, "template", at, errors);
    const doc::Node* depends_on = doc::At(&job, "dependsOn");
    MaxItems(depends_on, 5, at.Child("dependsOn"), errors);
    std::size_t dependency = 0;
    for (const doc::Node& item : doc::Items(depends_on)) {
      const Path item_path = at.Child("dependsOn").Index(dependency++);
      Required(item, "name", item_path, errors);
      Required(item, "status", item_path, errors);
      Enum(&item, "status", {"Ready", "Complete"}, item_path, errors);
    }
    UniqueNames(depends_on, at.Child("dependsOn"), errors);
  }
  UniqueNames(jobs, path, errors);
}

void CheckFailurePolicy(const doc::Node& spec, const JobSetRules& rules, const Path& path, ObjectErrors* errors) {
  const doc::Node* policy = doc::At(&spec, "failurePolicy");
  if (policy == nullptr) return;
  if (rules.in_place_restart_strategy) {
    Enum(policy, "restartStrategy", {"Recreate", "BlockingRecreate", "InPlaceRestart"}, path, errors);
  } else {
    Enum(policy, "restartStrategy", {"Recreate", "BlockingRecreate"}, path, errors);
  }
  std::size_t index = 0;
  for (const doc::Node& rule : doc::Items(doc::At(policy, "rules"))) {
    const Path at = path.Child("rules").Index(index++);
    Required(rule, "action", at, errors);
    Required(rule, "name", at, errors);
    if (rules.restart_job_actions) {
      Enum(&rule, "action",
           {"FailJobSet", "RestartJobSet", "RestartJobSetAndIgnoreMaxRestarts", "RestartJob",
            "RestartJobAndIgnoreMaxRestarts"},
           at, errors);
    } else {
      Enum(&rule, "action", {"FailJobSet", "RestartJobSet", "RestartJobSetAndIgnoreMaxRestarts"}, at, errors);
    }
  }
}

void CheckVolumeClaimPolicies(const doc::Node& spec, const Path& path, ObjectErrors* errors) {
  const doc::Node* policies = doc::At(&spec, "volumeClaimPolicies");
  MaxItems(policies, 50, path, errors);
  std::size_t index = 0;
  for (const doc::Node& policy : doc::Items(policies)) {
    const Path at = path.Index(index++);
    MaxItems(doc::At(&policy, "templates"), 50, at.Child("templates"), errors);
    Enum(doc::At(&policy, "retentionPolicy"), "whenDeleted", {"Delete", "Retain"}, at.Child("retentionPolicy"),
         errors);
  }
}

// The x-kubernetes-validations a create evaluates, after the schema's own
// errors (apiextensions-apiserver runs both).
void CheckCelRules(const doc::Node& spec, const JobSetRules& rules, const Path& path, ObjectErrors* errors) {
  // spec: !(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder
  // == 'InOrder' && self.replicatedJobs.exists(x, has(x.dependsOn)))
  if (doc::StringAtPath(spec, {"startupPolicy", "startupPolicyOrder"}) == "InOrder") {
    for (const doc::Node& job : doc::Items(doc::At(&spec, "replicatedJobs"))) {
      if (doc::FindPath(job, {"dependsOn"}) == nullptr) continue;
      errors->Add(kRule,
                  FieldError{ErrorType::kInvalid, path.String(), BadValue::String("object"),
                             "StartupPolicy and DependsOn APIs are mutually exclusive"},
                  {doc::FindPath(job, {"dependsOn"}), doc::At(&spec, "startupPolicy")});
      break;
    }
  }
  if (!rules.volume_claim_policies) return;
  // volumeClaimPolicies[]: self.templates.all(t, !has(t.metadata.namespace)
  // || size(t.metadata.namespace) == 0)
  std::size_t index = 0;
  for (const doc::Node& policy : doc::Items(doc::At(&spec, "volumeClaimPolicies"))) {
    for (const doc::Node& claim : doc::Items(doc::At(&policy, "templates"))) {
      if (doc::StringAtPath(claim, {"metadata", "namespace"}).empty()) continue;
      errors->Add(kRule,
                  FieldError{ErrorType::kInvalid, path.Child("volumeClaimPolicies").Index(index).String(),
                             BadValue::String("object"), "namespace cannot be set for VolumeClaimPolicies templates"},
                  {doc::FindPath(claim, {"metadata", "namespace"}), &policy});
      break;
    }
    ++index;
  }
}

}  // namespace

void ValidateSchema(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors) {
  const doc::Node* spec = doc::At(&jobset, "spec");
  if (spec == nullptr) return;
  const Path path("spec");
  CheckReplicatedJobs(*spec, path.Child("replicatedJobs"), errors);
  if (const doc::Node* coordinator = doc::At(spec, "coordinator")) {
    Required(*coordinator, "replicatedJob", path.Child("coordinator"), errors);
  }
  CheckFailurePolicy(*spec, rules, path.Child("failurePolicy"), errors);
  if (const doc::Node* policy = doc::At(spec, "startupPolicy")) {
    Required(*policy, "startupPolicyOrder", path.Child("startupPolicy"), errors);
    Enum(policy, "startupPolicyOrder", {"AnyOrder", "InOrder"}, path.Child("startupPolicy"), errors);
  }
  if (const doc::Node* policy = doc::At(spec, "successPolicy")) {
    Required(*policy, "operator", path.Child("successPolicy"), errors);
    Enum(policy, "operator", {"All", "Any"}, path.Child("successPolicy"), errors);
  }
  if (const doc::Node* ttl = doc::At(spec, "ttlSecondsAfterFinished"); ttl != nullptr && ttl->is_int() &&
                                                                        ttl->int_value() < 0) {
    errors->Add(kRule,
                FieldError{ErrorType::kInvalid, "spec.ttlSecondsAfterFinished", BadValue::Int(ttl->int_value()),
                           "spec.ttlSecondsAfterFinished in body should be greater than or equal to 0"},
                ttl);
  }
  if (rules.volume_claim_policies) CheckVolumeClaimPolicies(*spec, path.Child("volumeClaimPolicies"), errors);
  CheckCelRules(*spec, rules, path, errors);
}

}  // namespace tjr::admission::jobset_parts
