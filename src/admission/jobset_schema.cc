// The JobSet CRD's schema and CEL rules on a JobSet being created, as
// apiextensions-apiserver checks them (customResourceStrategy.Validate):
// the OpenAPI schema, list-map and list-set uniqueness, then, unless an
// earlier error blocks them, the CEL rules. The table is
// policies/jobset-<tag>-validation.json (scripts/gen-jobset-crd-validation,
// from config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml at v0.10.1,
// v0.11.0 and v0.12.0), walked by validate's CRD checker; the embedded Job
// template's schema is in it, so a pod template without containers refuses
// the JobSet, not its Jobs. The "Value is immutable" transition rules only
// apply to updates. Fields the schema does not have are pruned silently.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "admission/jobset_crd_tables.h"
#include "admission/jobset_parts.h"
#include "doc/path.h"
#include "validate/crd_rules.h"
#include "validate/report.h"

namespace tjr::admission::jobset_parts {
namespace {

using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

constexpr std::string_view kRule = "schema";

const validate::CrdRules* TableOf(const JobSetRules& rules) {
  static std::mutex mutex;
  // Owned by the map, so that the tables are freed with it at exit.
  static std::unordered_map<std::string_view, std::unique_ptr<const validate::CrdRules>> tables;
  std::lock_guard<std::mutex> lock(mutex);
  auto [entry, inserted] = tables.try_emplace(rules.crd_rules, nullptr);
  if (!inserted) return entry->second.get();
  for (const EmbeddedPolicy& policy : EmbeddedPolicies()) {
    if (policy.name != rules.crd_rules) continue;
    Result<validate::CrdRules> parsed = validate::CrdRules::Parse(policy.bytes, policy.name);
    if (parsed.ok()) entry->second = std::make_unique<const validate::CrdRules>(std::move(parsed).value());
  }
  return entry->second.get();
}

// The node a field path ("spec.replicatedJobs[0].template", "<nil>") names
// in `root`, or its nearest present ancestor: where a finding is located.
const doc::Node* NodeAt(const doc::Node& root, std::string_view path) {
  const doc::Node* node = &root;
  std::size_t at = 0;
  while (at < path.size() && node != nullptr) {
    if (path[at] == '.') ++at;
    if (path[at] == '[') {
      const std::size_t close = path.find(']', at);
      if (close == std::string_view::npos) break;
      const std::string_view inner = path.substr(at + 1, close - at - 1);
      const doc::Node* next = nullptr;
      if (node->is_sequence()) {
        std::size_t index = 0;
        bool digits = !inner.empty();
        for (char c : inner) digits = digits && c >= '0' && c <= '9', index = index * 10 + (c - '0');
        if (digits && index < node->size()) next = &(*node)[index];
      } else {
        next = doc::At(node, inner);
      }
      if (next == nullptr) break;
      node = next;
      at = close + 1;
      continue;
    }
    const std::size_t end = path.find_first_of(".[", at);
    const std::string_view key = path.substr(at, end == std::string_view::npos ? path.size() - at : end - at);
    const doc::Node* next = doc::At(node, key);
    if (next == nullptr) break;
    node = next;
    at = end == std::string_view::npos ? path.size() : end;
  }
  return node;
}

// The two rules the table leaves to code (celByCode).
void CheckCodedCel(const doc::Node& jobset, const JobSetRules& rules, validate::Report* report) {
  const doc::Node* spec = doc::At(&jobset, "spec");
  // spec: !(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder
  // == 'InOrder' && self.replicatedJobs.exists(x, has(x.dependsOn)))
  if (doc::StringAtPath(spec, {"startupPolicy", "startupPolicyOrder"}) == "InOrder") {
    for (const doc::Node& job : doc::Items(doc::At(spec, "replicatedJobs"))) {
      if (doc::FindPath(job, {"dependsOn"}) == nullptr) continue;
      report->Add({ErrorType::kInvalid, "spec", BadValue::String("object"),
                   "StartupPolicy and DependsOn APIs are mutually exclusive"},
                  doc::FindPath(job, {"dependsOn"}));
      break;
    }
  }
  if (!rules.volume_claim_policies) return;
  // volumeClaimPolicies[*]: self.templates.all(t, !has(t.metadata.namespace)
  // || size(t.metadata.namespace) == 0). A template that sets a namespace
  // fails it whatever cel-go makes of templates without metadata (false &&
  // error is false); those alone are not judged.
  std::size_t index = 0;
  for (const doc::Node& policy : doc::Items(doc::At(spec, "volumeClaimPolicies"))) {
    for (const doc::Node& claim : doc::Items(doc::At(&policy, "templates"))) {
      if (doc::StringAtPath(claim, {"metadata", "namespace"}).empty()) continue;
      report->Add({ErrorType::kInvalid, "spec.volumeClaimPolicies[" + std::to_string(index) + "]",
                   BadValue::String("object"), "namespace cannot be set for VolumeClaimPolicies templates"},
                  doc::FindPath(claim, {"metadata", "namespace"}));
      break;
    }
    ++index;
  }
}

}  // namespace

void ValidateSchema(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors) {
  const validate::CrdRules* table = TableOf(rules);
  if (table == nullptr) return;  // a broken embedded table; its unit test fails
  validate::Report report;
  const std::string schema_name = "JobSet " + std::string(rules.version);
  // Every row runs on Kubernetes 1.34 or later, which prints a list-map
  // duplicate's key as JSON.
  validate::CheckCrdSchema(*table, jobset, validate::PruneOptions{schema_name, {}, nullptr},
                           validate::SchemaChecks::kAll, validate::DuplicateStyle::kJson, &report);
  if (validate::CelMayRun(jobset, &report)) {
    validate::CheckCrdCel(*table, jobset, nullptr, &report);
    CheckCodedCel(jobset, rules, &report);
  }
  for (const Diagnostic& finding : report.Take()) {
    if (finding.severity != Severity::kError) continue;  // pruning is silent for a JobSet
    errors->AddText(kRule, finding.message, {NodeAt(jobset, finding.field_path)});
  }
}

}  // namespace tjr::admission::jobset_parts
