// The API server's handling of a Job being created before it validates it,
// at v1.34.0, v1.35.0 and v1.36.0:
//   - the create handler's rest.FillObjectMetaSystemFields: a UID (a fixed
//     stand-in here: the real one is random);
//   - decoding's defaults: SetObjectDefaults_Job
//     (pkg/apis/batch/v1/zz_generated.defaults.go) = SetDefaults_Job
//     (pkg/apis/batch/v1/defaults.go), the pod failure policy's condition
//     patterns, and the pod template's core defaults (pod_defaults.h);
//   - jobStrategy.PrepareForCreate (pkg/registry/batch/job/strategy.go):
//     generateSelectorIfNeeded. Its feature-gated drops change nothing here:
//     JobPodFailurePolicy, JobManagedBy, JobSuccessPolicy,
//     JobBackoffLimitPerIndex and JobPodReplacementPolicy are on (GA or
//     beta on by default) at all three releases.
#include <string>

#include "admission/job.h"
#include "admission/job_parts.h"
#include "admission/node_edit.h"
#include "admission/pod_defaults.h"
#include "doc/path.h"

namespace tjr::admission {
namespace {



bool IsSet(const doc::Node& object, std::string_view key) { return doc::At(&object, key) != nullptr; }

// SetDefaults_Job.
void DefaultJobSpec(doc::Node& job) {
  // The Job takes its template's labels when it has none of its own.
  const doc::Node* template_labels = doc::AtPath(&job, {"spec", "template", "metadata", "labels"});
  const doc::Node* job_labels = doc::AtPath(&job, {"metadata", "labels"});
  if (template_labels != nullptr && template_labels->is_mapping() && (job_labels == nullptr || job_labels->empty())) {
    doc::Node labels = *template_labels;
    EnsureMapping(job, "metadata").Set("labels", std::move(labels));
  }
  // (The references below are taken after the Job's own fields change.)
  doc::Node& spec = EnsureMapping(job, "spec");
  // Both unset: a non-parallel Job, completions and parallelism 1.
  if (!IsSet(spec, "completions") && !IsSet(spec, "parallelism")) {
    spec.Set("completions", doc::Node::Int(1));
    spec.Set("parallelism", doc::Node::Int(1));
  }
  SetIfUnset(spec, "parallelism", doc::Node::Int(1));
  // math.MaxInt32 with a per-index limit: only that one then counts.
  SetIfUnset(spec, "backoffLimit", doc::Node::Int(IsSet(spec, "backoffLimitPerIndex") ? 2147483647 : 6));
  SetIfUnset(spec, "completionMode", doc::Node::String("NonIndexed"));
  SetIfUnset(spec, "suspend", doc::Node::Bool(false));
  // JobPodReplacementPolicy: GA at v1.34.0.
  SetIfUnset(spec, "podReplacementPolicy",
                 doc::Node::String(IsSet(spec, "podFailurePolicy") ? "Failed" : "TerminatingOrFailed"));
  SetIfUnset(spec, "manualSelector", doc::Node::Bool(false));
  // SetDefaults_PodFailurePolicyOnPodConditionsPattern ("Defaults to True"
  // in the API docs of all three releases; 1.35's OpenAPI merely stops
  // listing status as required).
  if (doc::Node* policy = spec.FindMutable("podFailurePolicy"); policy != nullptr && policy->is_mapping()) {
    doc::Node* rules = policy->FindMutable("rules");
    if (rules != nullptr && rules->is_sequence()) {
      for (doc::Node& rule : rules->mutable_items()) {
        doc::Node* patterns = rule.is_mapping() ? rule.FindMutable("onPodConditions") : nullptr;
        if (patterns == nullptr || !patterns->is_sequence()) continue;
        for (doc::Node& pattern : patterns->mutable_items()) {
          if (!pattern.is_mapping()) continue;
          const doc::Node* status = pattern.Find("status");
          if (status == nullptr || status->is_null() || (status->is_string() && status->string_value().empty())) {
            pattern.Set("status", doc::Node::String("True"));
          }
        }
      }
    }
  }
}

// generateSelector: the legacy and the batch.kubernetes.io/ labels of the
// Job's name and UID on the template unless written there, and the
// controller-uid one in the selector's matchLabels.
void GenerateSelector(doc::Node& job) {
  const std::string name = doc::StringAtPath(job, {"metadata", "name"});
  const std::string uid = doc::StringAtPath(job, {"metadata", "uid"});
  doc::Node& spec = EnsureMapping(job, "spec");
  doc::Node& labels = EnsureMapping(EnsureMapping(EnsureMapping(spec, "template"), "metadata"), "labels");
  for (std::string_view key : {job_parts::kLegacyJobNameLabel, job_parts::kJobNameLabel}) {
    if (labels.Find(key) == nullptr) labels.Set(std::string(key), doc::Node::String(name));
  }
  for (std::string_view key : {job_parts::kLegacyControllerUidLabel, job_parts::kControllerUidLabel}) {
    if (labels.Find(key) == nullptr) labels.Set(std::string(key), doc::Node::String(uid));
  }
  doc::Node& match_labels = EnsureMapping(EnsureMapping(spec, "selector"), "matchLabels");
  if (match_labels.Find(job_parts::kControllerUidLabel) == nullptr) {
    match_labels.Set(std::string(job_parts::kControllerUidLabel), doc::Node::String(uid));
  }
}

}  // namespace

void DefaultJob(doc::Node* job, const KubernetesRules& /*rules*/) {
  if (job == nullptr || !job->is_mapping()) return;
  doc::Node& metadata = EnsureMapping(*job, "metadata");
  if (doc::StringAt(metadata, "uid").empty()) metadata.Set("uid", doc::Node::String(std::string(job_parts::kStandInUid)));
  DefaultJobSpec(*job);
  DefaultPodTemplateSpec(&EnsureMapping(EnsureMapping(EnsureMapping(*job, "spec"), "template"), "spec"));
  // generateSelectorIfNeeded: manualSelector is defaulted to false above.
  const doc::Node* manual = doc::AtPath(job, {"spec", "manualSelector"});
  if (manual == nullptr || !manual->is_bool() || !manual->bool_value()) GenerateSelector(*job);
}

}  // namespace tjr::admission
