// ValidateJob for a create (pkg/apis/batch/validation/validation.go at
// v1.34.0, unchanged for a create at v1.35.0 and v1.36.0), with the
// options jobStrategy.Validate passes (pkg/registry/batch/job/strategy.go
// validationOptionsForJob: RequirePrefixedLabels; the pod validation
// options of a new template, which ValidatePodTemplateSpec applies for
// PodOwner::kJobTemplate).
#include "admission/job.h"

#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/job_parts.h"
#include "admission/object_meta.h"
#include "doc/path.h"

namespace tjr::admission {
namespace {

// An Indexed Job's pods are named "<job>-<index>" and take that as their
// hostname: the last one must still be a DNS label.
void ValidateIndexedHostnames(const doc::Node& job, ObjectErrors* errors) {
  const doc::Node* spec = doc::At(&job, "spec");
  const std::optional<std::int64_t> completions = job_parts::IntAt(spec, "completions");
  if (doc::StringAt(spec, "completionMode") != "Indexed" || !completions || *completions <= 0) return;
  const doc::Node* metadata = doc::At(&job, "metadata");
  const std::string name = doc::StringAt(metadata, "name");
  const std::string hostname = name + "-" + std::to_string(*completions - 1);
  if (formats::Dns1123Label(hostname).empty()) return;
  errors->Add("indexed-hostname",
              containers::Invalid(Path("metadata").Child("name"), validate::BadValue::String(name),
                                  "will not able to create pod with invalid DNS label: " + hostname),
              {doc::At(metadata, "name"), metadata, &job});
}

}  // namespace

void ValidateJob(const doc::Node& job, const KubernetesRules& rules, ObjectErrors* errors) {
  // Jobs and ReplicationControllers share the name rule: a DNS subdomain.
  ValidateObjectMeta(doc::At(&job, "metadata"), true, NameRule::kDns1123Subdomain, Path("metadata"), errors);
  job_parts::ValidateGeneratedSelector(job, errors);
  const doc::Node* spec = doc::At(&job, "spec");
  const doc::Node empty = doc::Node::Mapping();
  const doc::Node& spec_or_empty = spec != nullptr ? *spec : empty;
  job_parts::ValidateJobSpecFields(spec_or_empty, rules, errors);
  job_parts::ValidateSpecSelector(spec_or_empty, errors);
  ValidateIndexedHostnames(job, errors);
}

}  // namespace tjr::admission
