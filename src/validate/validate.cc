#include "validate/validate.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "validate/crd_rules.h"
#include "validate/go_json.h"
#include "validate/rules.h"

namespace tjr::validate {
namespace {

constexpr std::string_view kDeprecationPolicy =
    "https://www.kubeflow.org/docs/components/trainer/operator-guides/runtime/#runtime-deprecation-policy";

bool IsDeprecated(const doc::Node& runtime) {
  return doc::StringAt(doc::At(doc::At(&runtime, "metadata"), "labels"), "trainer.kubeflow.org/support") == "deprecated";
}

// Annotation maps laid over one another in order: a later value replaces
// an earlier one in place, new keys go last. Indexed, so that N keys cost
// O(N) (a TrainJob's 40,000 annotations took 37 s to check).
class AnnotationOverlay {
 public:
  explicit AnnotationOverlay(std::vector<std::pair<std::string, std::string>>* out) : out_(out) {
    for (std::size_t i = 0; i < out_->size(); ++i) at_.emplace((*out_)[i].first, i);
  }

  void Add(const doc::Node* map) {
    if (map == nullptr) return;
    for (const doc::Field& field : map->fields()) {
      if (!field.value.is_string()) continue;
      auto [it, added] = at_.emplace(field.key, out_->size());
      if (added) {
        out_->emplace_back(field.key, field.value.string_value());
      } else {
        (*out_)[it->second].second = field.value.string_value();
      }
    }
  }

 private:
  std::vector<std::pair<std::string, std::string>>* out_;
  std::unordered_map<std::string, std::size_t> at_;
};

// runtimeRef -> the ancestor's required container (trainingruntime_webhook.go).
std::string_view RequiredContainer(std::string_view ancestor) {
  if (ancestor == "trainer") return "node";
  if (ancestor == "dataset-initializer" || ancestor == "model-initializer") return ancestor;
  return {};
}

// What a top-level key of the object may belong to besides the CRD's own
// fields (see PruneOptions::object_meta); nullptr when the release's
// Kubernetes types cannot be built, which CheckMetadataDecodes reports.
const schema::Type* ObjectMetaOf(trainer::TrainerVersion version) {
  Result<const schema::Schema*> types = schema::BuiltinSchema({std::string(trainer::ReleaseOf(version).kubernetes_schema)});
  return types.ok() ? (*types)->FindType("k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta") : nullptr;
}

std::string ControllerName(trainer::TrainerVersion version) {
  return "the Trainer " + std::string(trainer::ReleaseOf(version).tag) + " controller";
}

}  // namespace

bool WebhookInfo::HasPodSet(std::string_view name) const {
  for (const doc::Node& job : doc::Items(doc::At(&jobset_spec, "replicatedJobs"))) {
    if (doc::StringAt(&job, "name") == name) return true;
  }
  return false;
}

Diagnostics ValidateTrainJobSchema(const doc::Node& trainjob, const ValidateOptions& options) {
  Report report;
  const CrdRules* rules = BuiltinCrdRules(options.version);
  if (rules == nullptr) {
    report.Append({AsInputError(MakeError(Location{}, "", "the CRD validation table of this release is missing"))});
    return report.Take();
  }
  if (!CheckMetadataDecodes(trainjob, trainer::ReleaseOf(options.version).kubernetes_schema, &report)) return report.Take();
  if (trainer::ReleaseOf(options.version).runtime_patches) {
    CheckRemovedFields(trainjob, options.version, &report);
    CheckObjectMeta(trainjob, &report);
    CheckCrdRules(*rules, trainjob, options.old, options.duplicate_style, trainer::ReleaseOf(options.version).tag,
                  &report, ObjectMetaOf(options.version));
  } else {
    // v2.1.0: pruning and the OpenAPI types from the CRD table, the other
    // rules written out in schema_rules.cc.
    CheckObjectMeta(trainjob, &report);
    const std::string schema_name = "Trainer " + std::string(trainer::ReleaseOf(options.version).tag) + " TrainJob";
    CheckCrdSchema(*rules, trainjob, PruneOptions{schema_name, {}, ObjectMetaOf(options.version)}, SchemaChecks::kTypes,
                   options.duplicate_style,
                   &report);
    CheckOpenApiSchema(trainjob, &report);
    CheckListMapKeys(trainjob, options.duplicate_style, &report);
    if (CelMayRun(trainjob, &report)) CheckCelRules(trainjob, options.old, &report);
  }
  // Stored, but beyond what the controller's Go types hold.
  if (!HasErrors(report.diagnostics())) CheckGoIntRanges(*rules, trainjob, ControllerName(options.version), &report);
  return report.Take();
}

namespace {

// The patch's fields alone: what strategic merge reads as directives
// (apimachinery strategicpatch: keys starting with `$`, `null` deletes)
// left out.
doc::Node PatchFields(const doc::Node& node) {
  if (node.is_mapping()) {
    doc::Node out = doc::Node::Mapping();
    for (const doc::Field& field : node.fields()) {
      if (field.key.starts_with("$") || field.value.is_null()) continue;
      out.Set(field.key, PatchFields(field.value), field.key_location);
    }
    out.set_location(node.location());
    return out;
  }
  if (node.is_sequence()) {
    doc::Node out = doc::Node::Sequence();
    for (const doc::Node& item : node.items()) {
      if (item.is_mapping() && item.size() == 1 && item.Find("$patch") != nullptr) continue;
      out.push_back(PatchFields(item));
    }
    out.set_location(node.location());
    return out;
  }
  return node;
}

}  // namespace

Diagnostics ValidateTrainJobPatchTypes(const doc::Node& patch, trainer::TrainerVersion version) {
  Report report;
  const CrdRules* rules = BuiltinCrdRules(version);
  if (rules == nullptr || !patch.is_mapping()) return report.Take();
  const std::string schema_name = "Trainer " + std::string(trainer::ReleaseOf(version).tag) + " TrainJob";
  CheckCrdSchema(*rules, PatchFields(patch), PruneOptions{schema_name, {}, ObjectMetaOf(version)}, SchemaChecks::kTypes,
                 DuplicateStyle::kJson, &report);
  return report.Take();
}

Diagnostics ValidateTrainJobWebhook(const doc::Node& trainjob, const doc::Node& runtime,
                                    const ValidateOptions& options) {
  Report report;
  if (runtime.is_mapping() && doc::StringAt(&runtime, "kind") == "ClusterTrainingRuntime" && IsDeprecated(runtime)) {
    report.Warn("Referenced ClusterTrainingRuntime \"" + doc::StringAt(doc::At(&runtime, "metadata"), "name") +
                    "\" is deprecated and will be removed in a future release of Kubeflow Trainer. See runtime "
                    "deprecation policy: " +
                    std::string(kDeprecationPolicy),
                doc::At(doc::At(&trainjob, "spec"), "runtimeRef"));
  }
  const doc::Node* runtime_spec = doc::At(&runtime, "spec");
  const doc::Node* template_spec = doc::At(doc::At(runtime_spec, "template"), "spec");
  if (options.merge_error != nullptr) {
    // Upstream ignores this error and validates a nil runtime.Info; report
    // the merge failure itself rather than guess at that path.
    report.Append({*options.merge_error});
    return report.Take();
  }
  WebhookInfo info;
  info.trainjob = &trainjob;
  info.old = options.old;
  info.options = &options;
  info.ml_policy = doc::At(runtime_spec, "mlPolicy");
  info.pod_group_policy = doc::At(runtime_spec, "podGroupPolicy");
  info.jobset_spec = options.merged_jobset_spec != nullptr ? *options.merged_jobset_spec
                     : template_spec != nullptr               ? *template_spec
                                                              : doc::Node::Mapping();
  info.runtime_annotations = doc::At(doc::At(doc::At(runtime_spec, "template"), "metadata"), "annotations");
  AnnotationOverlay annotations(&info.annotations);
  annotations.Add(info.runtime_annotations);
  if (trainer::ReleaseOf(options.version).runtime_patches) {
    // JobSet-level patch annotations, in list order (trainingruntime.go:152-169).
    for (const doc::Node& entry : doc::Items(doc::At(doc::At(&trainjob, "spec"), "runtimePatches"))) {
      annotations.Add(
          doc::At(doc::At(doc::At(doc::At(&entry, "trainingRuntimeSpec"), "template"), "metadata"), "annotations"));
    }
    CheckJobSetPluginRuntimePatches(info, &report);
  } else {
    annotations.Add(doc::At(doc::At(&trainjob, "spec"), "annotations"));
    CheckJobSetPlugin(info, &report);
  }
  if (!trainer::ReleaseOf(options.version).runtime_patches) {
    CheckTorchPlugin(info, &report);
    if (report.panicked()) return report.Take();
    CheckMpiPlugin(info, &report);
  } else {
    CheckTorchPluginV2(info, &report);
    CheckMpiPluginV2(info, &report);
    CheckXGBoostPlugin(info, &report);
    CheckFluxPlugin(info, &report);
  }
  CheckVolcanoPlugin(info, &report);
  return report.Take();
}

Diagnostics ValidateTrainJob(const doc::Node& trainjob, const doc::Node* runtime, const ValidateOptions& options) {
  Diagnostics schema = ValidateTrainJobSchema(trainjob, options);
  if (!schema.empty() || runtime == nullptr) return schema;
  return ValidateTrainJobWebhook(trainjob, *runtime, options);
}

namespace {

bool Has(const doc::Node* object, std::string_view key) {
  const doc::Node* value = doc::At(object, key);
  return value != nullptr && !value->is_null();  // nulls are pruned before CEL runs
}

// The mlPolicy rules of the v2.2.0/v2.3.0 CRDs (trainingruntime_types.go at
// v2.3.0: MLPolicy one-of over five sources, FluxMLPolicySource
// numProcPerNode >= 1); elasticPolicy and its rule are gone. A scalar rule
// reports the schema type as its value.
void MlPolicyCelV22(const doc::Node* ml_policy, Report* report) {
  int sources = 0;
  for (std::string_view source : {"torch", "mpi", "jax", "xgboost", "flux"}) sources += Has(ml_policy, source) ? 1 : 0;
  if (sources > 1) {
    report->Add({ErrorType::kInvalid, "spec.mlPolicy", BadValue::String("object"),
                 "Only one of the policy can be configured"},
                ml_policy);
  }
}

// trainingruntime_types.go at v2.3.0 (EnvInjectionTarget.containerNames):
// `!self.exists(c, c == 'node')` on each target's list of names.
void EnvInjectionCel(const doc::Node* ml_policy, Report* report) {
  const doc::Node* targets = doc::At(doc::At(doc::At(ml_policy, "torch"), "envInjection"), "targets");
  for (std::size_t i = 0; i < doc::Items(targets).size(); ++i) {
    const doc::Node* names = doc::At(&doc::Items(targets)[i], "containerNames");
    for (const doc::Node& name : doc::Items(names)) {
      if (!name.is_string() || name.string_value() != "node") continue;
      report->Add({ErrorType::kInvalid,
                   "spec.mlPolicy.torch.envInjection.targets[" + std::to_string(i) + "].containerNames",
                   BadValue::String("array"),
                   "containerNames must not include the main node container because PET_* envs are always "
                   "injected into it"},
                  names);
      break;
    }
  }
}

// The x-kubernetes-validations (CEL) rules of the (Cluster)TrainingRuntime
// CRDs that the CRD table leaves to code (`celByCode` in
// policies/trainer-*-runtime-validation.json) and that can fail on create;
// the API server refuses the object before any webhook sees it. CEL reports
// an object-level rule as `Invalid value: "object"` at the object that
// carries the rule.
void RuntimeCelErrors(const doc::Node& runtime, trainer::TrainerVersion version, Report* out) {
  Report& report = *out;
  const bool v22 = trainer::ReleaseOf(version).runtime_patches;
  const doc::Node* ml_policy = doc::At(doc::At(&runtime, "spec"), "mlPolicy");
  if (v22 && ml_policy != nullptr && ml_policy->is_mapping()) {
    MlPolicyCelV22(ml_policy, &report);
    if (trainer::ReleaseOf(version).torch_env_injection) EnvInjectionCel(ml_policy, &report);
  } else if (ml_policy != nullptr && ml_policy->is_mapping()) {
    const doc::Node* torch = doc::At(ml_policy, "torch");
    // trainingruntime_types.go:174-175, CRD spec.mlPolicy x-kubernetes-validations.
    if (doc::At(ml_policy, "numNodes") != nullptr && doc::At(torch, "elasticPolicy") != nullptr) {
      report.Add({ErrorType::kInvalid, "spec.mlPolicy", BadValue::String("object"),
                  "numNodes should not be set if torch.elasticPolicy is configured"},
                 ml_policy);
    }
    if (torch != nullptr && doc::At(ml_policy, "mpi") != nullptr) {
      report.Add({ErrorType::kInvalid, "spec.mlPolicy", BadValue::String("object"),
                  "Only one of the policy can be configured"},
                 ml_policy);
    }
  }
  // JobSet v0.10.1 CRD, embedded in the runtime CRD at spec.template.spec.
  const doc::Node* jobset_spec = doc::At(doc::At(doc::At(&runtime, "spec"), "template"), "spec");
  if (jobset_spec != nullptr && jobset_spec->is_mapping() &&
      doc::StringAt(doc::At(jobset_spec, "startupPolicy"), "startupPolicyOrder") == "InOrder") {
    bool depends = false;
    for (const doc::Node& job : doc::Items(doc::At(jobset_spec, "replicatedJobs"))) {
      if (doc::At(&job, "dependsOn") != nullptr) depends = true;
    }
    if (depends) {
      report.Add({ErrorType::kInvalid, "spec.template.spec", BadValue::String("object"),
                  "StartupPolicy and DependsOn APIs are mutually exclusive"},
                 jobset_spec);
    }
  }
}

Diagnostics ValidateRuntimeFor(const doc::Node& runtime, trainer::TrainerVersion version) {
  Report report;
  const CrdRules* rules = BuiltinRuntimeCrdRules(version);
  if (rules == nullptr) {
    report.Append(
        {AsInputError(MakeError(Location{}, "", "the runtime CRD validation table of this release is missing"))});
    return report.Take();
  }
  // The API server: pruning, the OpenAPI schema and list uniqueness, then
  // the CEL rules (the table's and those written out above).
  if (!CheckMetadataDecodes(runtime, trainer::ReleaseOf(version).kubernetes_schema, &report)) return report.Take();
  const std::string kind = doc::StringAt(&runtime, "kind");
  CheckObjectMeta(runtime, &report, /*namespaced=*/kind != "ClusterTrainingRuntime");
  const std::string schema_name = "Trainer " + std::string(trainer::ReleaseOf(version).tag) + " " + kind;
  CheckCrdSchema(*rules, runtime, PruneOptions{schema_name, {}, ObjectMetaOf(version)}, SchemaChecks::kAll,
                 DuplicateStyle::kJson, &report);
  if (CelMayRun(runtime, &report)) {
    // The rules written out sit on spec.mlPolicy and spec.template.spec,
    // the table's below them: parents first, as the CEL validator goes.
    RuntimeCelErrors(runtime, version, &report);
    CheckCrdCel(*rules, runtime, nullptr, &report);
  }
  if (HasErrors(report.diagnostics())) return report.Take();  // refused before the webhook
  CheckGoIntRanges(*rules, runtime, ControllerName(version), &report);
  if (HasErrors(report.diagnostics())) return report.Take();  // never reaches the controller
  if (doc::StringAt(&runtime, "kind") == "ClusterTrainingRuntime" && IsDeprecated(runtime)) {
    report.Warn("ClusterTrainingRuntime \"" + doc::StringAt(doc::At(&runtime, "metadata"), "name") +
                    "\" is deprecated and will be removed in a future release of Kubeflow Trainer. See runtime "
                    "deprecation policy: " +
                    std::string(kDeprecationPolicy),
                doc::At(doc::At(doc::At(&runtime, "metadata"), "labels"), "trainer.kubeflow.org/support"));
  }
  const doc::Node* jobs = doc::At(doc::At(doc::At(doc::At(&runtime, "spec"), "template"), "spec"), "replicatedJobs");
  for (std::size_t i = 0; i < doc::Items(jobs).size(); ++i) {
    const doc::Node& job = doc::Items(jobs)[i];
    const doc::Node* labels = doc::At(doc::At(doc::At(&job, "template"), "metadata"), "labels");
    const doc::Node* ancestor_node = doc::At(labels, "trainer.kubeflow.org/trainjob-ancestor-step");
    if (ancestor_node == nullptr || !ancestor_node->is_string()) continue;
    const std::string& ancestor = ancestor_node->string_value();
    const std::string_view required = RequiredContainer(ancestor);
    if (required.empty()) continue;
    const std::string path = "spec.template.spec.replicatedJobs[" + std::to_string(i) + "]";
    // CRD defaulting makes an absent `replicas` 1.
    const doc::Node* replicas = doc::At(&job, "replicas");
    const std::int64_t count = replicas != nullptr && replicas->is_int() ? replicas->int_value() : 1;
    if (count != 1) {
      report.Add({ErrorType::kInvalid, path + ".replicas", BadValue::Int(count), "always must be 1"}, replicas);
    }
    const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&job, "template"), "spec"), "template"), "spec");
    const doc::Node* containers = doc::At(pod_spec, "containers");
    bool has_required = false;
    for (const doc::Node& container : doc::Items(containers)) {
      if (doc::StringAt(&container, "name") == required) has_required = true;
    }
    if (!has_required) {
      report.Add({ErrorType::kInvalid, path + ".template.spec.template.spec.containers",
                  BadValue::Json(ContainersJson(containers != nullptr ? *containers : doc::Node(), version)),
                  "must contain the required container for the ancestor: " + ancestor},
                 Either(containers, &job));
    }
  }
  return report.Take();
}

}  // namespace

Diagnostics ValidateRuntime(const doc::Node& runtime, trainer::TrainerVersion version) {
  return ValidateRuntimeFor(runtime, version);
}

std::string AggregateErrors(const Diagnostics& diagnostics) {
  std::vector<std::string> messages;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError) messages.push_back(d.message);
  }
  return AggregateMessages(messages);
}

std::string WebhookDenial(const Diagnostics& diagnostics, std::string_view webhook) {
  return "admission webhook \"" + std::string(webhook) + "\" denied the request: " + AggregateErrors(diagnostics);
}

std::string ApiServerInvalid(const Diagnostics& diagnostics, std::string_view name, std::string_view qualified_kind) {
  return std::string(qualified_kind) + " " + gocompat::Quote(name) + " is invalid: " + AggregateErrors(diagnostics);
}

}  // namespace tjr::validate
