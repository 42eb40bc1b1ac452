#include "admission/admission.h"

#include <array>
#include <string>
#include <utility>

#include "admission/job.h"
#include "admission/jobset.h"
#include "admission/object_meta.h"
#include "admission/other_objects.h"
#include "admission/pod.h"
#include "admission/pod_defaults.h"
#include "doc/path.h"

namespace tjr::admission {
namespace {

// A value the controller or the API server wrote has no location of its
// own: the TrainJob field that drove it is where the user changes it. The
// first entry whose marker occurs in the error's field path wins.
struct DrivingField {
  std::string_view marker;
  std::string_view trainer_field;  ///< of the TrainJob's spec.trainer
};
constexpr std::array<DrivingField, 6> kDrivingFields = {{
    {"].resources", "resourcesPerNode"},
    {"].image", "image"},
    {"].env", "env"},
    {"].command", "command"},
    {"spec.parallelism", "numNodes"},
    {"spec.completions", "numNodes"},
}};

Location LocationOf(const ObjectError& error, const doc::Node& trainjob) {
  if (error.at != nullptr) return error.at->location();
  for (const DrivingField& driving : kDrivingFields) {
    if (error.error.field.find(driving.marker) == std::string::npos) continue;
    const doc::Node* field = doc::FindPath(&trainjob, {"spec", "trainer", driving.trainer_field});
    if (field != nullptr && field->location().known()) return field->location();
  }
  return trainjob.location();
}

std::string KindRule(std::string_view kind) {
  std::string out;
  for (char c : kind) out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

// "ml/llama", or "llama" for an object without a namespace.
std::string NamespacedName(const doc::Node& object) {
  const doc::Node* metadata = doc::At(&object, "metadata");
  const std::string name = doc::StringAt(metadata, "name");
  const std::string space = doc::StringAt(metadata, "namespace");
  return space.empty() ? name : space + "/" + name;
}

// One error per field error, prefixed with the refused object.
void Report(std::string_view kind, const std::string& object, ObjectErrors&& errors, const doc::Node& drove,
            Diagnostics* out) {
  for (ObjectError& error : errors.Take()) {
    const std::string text = error.text.empty() ? error.error.Error() : error.text;
    // The field path is the refused object's, not one of the file the
    // finding points at: it stays in the message, after the object.
    std::string rule = "rendered/" + KindRule(kind) + "/" + error.rule;
    Diagnostic finding = MakeError(LocationOf(error, drove), "", "[" + rule + "] " + object + ": " + text);
    finding.rule = std::move(rule);
    out->push_back(std::move(finding));
  }
}

void AdmitJobSet(const doc::Node& rendered, const doc::Node& trainjob, const AdmissionRules& rules,
                 Diagnostics* out) {
  doc::Node jobset = rendered;
  DefaultJobSet(&jobset, *rules.jobset);
  ObjectErrors errors;
  ValidateJobSet(jobset, *rules.jobset, &errors);
  const std::string jobset_name = NamespacedName(jobset);
  if (!errors.empty()) {
    // A refused JobSet creates no Jobs.
    Report("JobSet", "JobSet " + jobset_name, std::move(errors), trainjob, out);
    return;
  }
  for (doc::Node& job : FirstJobs(jobset, *rules.jobset)) {
    DefaultJob(&job, *rules.kubernetes);
    ObjectErrors job_errors;
    ValidateJob(job, *rules.kubernetes, &job_errors);
    Report("Job", "Job " + NamespacedName(job) + " (created by JobSet " + jobset_name + ")", std::move(job_errors),
           trainjob, out);
  }
}

}  // namespace

AdmissionRules AdmissionRulesOf(std::string_view kubernetes, std::string_view jobset) {
  return AdmissionRules{KubernetesRulesOf(kubernetes), JobSetRulesOf(jobset)};
}

Diagnostics AdmitRendered(const doc::Node& trainjob, const std::vector<doc::Node>& objects,
                          const AdmissionRules& rules) {
  Diagnostics out;
  if (rules.kubernetes == nullptr || rules.jobset == nullptr) return out;
  for (const doc::Node& object : objects) {
    const std::string kind = doc::StringAt(&object, "kind");
    if (kind == "JobSet") {
      AdmitJobSet(object, trainjob, rules, &out);
    } else if (kind == "ConfigMap") {
      ObjectErrors errors;
      ValidateConfigMap(object, *rules.kubernetes, &errors);
      Report(kind, kind + " " + NamespacedName(object), std::move(errors), trainjob, &out);
    } else if (kind == "PodGroup") {
      ObjectErrors errors;
      ValidatePodGroup(object, &errors);
      Report(kind, kind + " " + NamespacedName(object), std::move(errors), trainjob, &out);
    }
  }
  return out;
}

Diagnostics AdmitPod(const doc::Node& pod, const doc::Node& fallback, const KubernetesRules& rules) {
  Diagnostics out;
  ObjectErrors errors;
  // The pod template defaults (SetDefaults_Pod's own are not applied).
  doc::Node defaulted = pod;
  if (doc::Node* spec = defaulted.FindMutable("spec"); spec != nullptr && spec->is_mapping()) {
    DefaultPodTemplateSpec(spec);
  }
  const doc::Node* metadata = doc::At(&defaulted, "metadata");
  ValidateObjectMeta(metadata, true, NameRule::kDns1123Subdomain, Path("metadata"), &errors);
  ValidatePodSpec(doc::At(&defaulted, "spec"), metadata, Path("spec"), PodOwner::kPod, rules, &errors);
  Report("Pod", "Pod " + NamespacedName(pod), std::move(errors), fallback, &out);
  return out;
}

Diagnostics AdmitPodTemplate(const doc::Node& pod_template, const KubernetesRules& rules) {
  Diagnostics out;
  ObjectErrors errors;
  ValidateObjectMeta(doc::At(&pod_template, "metadata"), true, NameRule::kDns1123Subdomain, Path("metadata"),
                     &errors);
  doc::Node tmpl = doc::At(&pod_template, "template") != nullptr ? *doc::At(&pod_template, "template") : doc::Node();
  if (doc::Node* spec = tmpl.is_mapping() ? tmpl.FindMutable("spec") : nullptr; spec != nullptr && spec->is_mapping()) {
    DefaultPodTemplateSpec(spec);
  }
  ValidatePodTemplateSpec(tmpl.is_null() ? nullptr : &tmpl, Path("template"), PodOwner::kPodTemplate, rules, &errors);
  Report("PodTemplate", "PodTemplate " + NamespacedName(pod_template), std::move(errors), pod_template, &out);
  return out;
}

}  // namespace tjr::admission
