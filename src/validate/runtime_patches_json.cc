#include "validate/runtime_patches_json.h"

#include <algorithm>
#include <vector>

#include "validate/go_json.h"

namespace tjr::validate {
namespace {

constexpr std::string_view kCore = "k8s.io/api/core/v1.";

bool Present(const doc::Node* node) { return node != nullptr && !node->is_null(); }

bool NonEmptyList(const doc::Node* node) { return node != nullptr && node->is_sequence() && !node->empty(); }

std::string CoreType(std::string_view name) { return std::string(kCore) + std::string(name); }

void CopyNonEmptyString(const doc::Node& from, std::string_view key, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (value != nullptr && value->is_string() && !value->string_value().empty()) to->Set(std::string(key), *value);
}

void CopyPresent(const doc::Node& from, std::string_view key, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (Present(value)) to->Set(std::string(key), *value);
}

void CopyTyped(const doc::Node& from, std::string_view key, std::string_view type_name, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (Present(value)) to->Set(std::string(key), Typed(*value, type_name));
}

void CopyTypedList(const doc::Node& from, std::string_view key, std::string_view type_name, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (!NonEmptyList(value)) return;
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& item : value->items()) out.push_back(Typed(item, type_name));
  to->Set(std::string(key), out);
}

// *metav1.ObjectMeta. Trainer v2.2+ is built with Go 1.25+, which honours
// creationTimestamp's `omitzero`: the zero time is left out.
void CopyObjectMeta(const doc::Node& from, doc::Node* to) {
  const doc::Node* metadata = from.Find("metadata");
  if (!Present(metadata)) return;
  doc::Node typed = Typed(*metadata, "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta");
  if (typed.is_mapping()) {
    doc::Node out = doc::Node::Mapping();
    for (const doc::Field& field : typed.fields()) {
      if (field.key == "creationTimestamp" && field.value.is_null()) continue;
      out.Set(field.key, field.value);
    }
    typed = out;
  }
  to->Set("metadata", typed);
}

doc::Node SortedStringMap(const doc::Node& map) {
  std::vector<const doc::Field*> fields;
  for (const doc::Field& field : map.fields()) fields.push_back(&field);
  std::sort(fields.begin(), fields.end(), [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; });
  doc::Node out = doc::Node::Mapping();
  for (const doc::Field* field : fields) out.Set(field->key, field->value);
  return out;
}

doc::Node ContainerPatch(const doc::Node& container) {
  doc::Node out = doc::Node::Mapping();
  if (!container.is_mapping()) return out;
  CopyNonEmptyString(container, "name", &out);
  CopyTypedList(container, "env", CoreType("EnvVar"), &out);
  CopyTypedList(container, "volumeMounts", CoreType("VolumeMount"), &out);
  CopyTyped(container, "securityContext", CoreType("SecurityContext"), &out);
  return out;
}

doc::Node PodSpecPatch(const doc::Node& spec, trainer::TrainerVersion version) {
  doc::Node out = doc::Node::Mapping();
  if (!spec.is_mapping()) return out;
  CopyPresent(spec, "serviceAccountName", &out);
  CopyTypedList(spec, "volumes", CoreType("Volume"), &out);
  for (std::string_view key : {"initContainers", "containers"}) {
    const doc::Node* list = spec.Find(key);
    if (!NonEmptyList(list)) continue;
    doc::Node containers = doc::Node::Sequence();
    for (const doc::Node& item : list->items()) containers.push_back(ContainerPatch(item));
    out.Set(std::string(key), containers);
  }
  CopyTypedList(spec, "imagePullSecrets", CoreType("LocalObjectReference"), &out);
  CopyTyped(spec, "securityContext", CoreType("PodSecurityContext"), &out);
  if (const doc::Node* selector = spec.Find("nodeSelector");
      selector != nullptr && selector->is_mapping() && !selector->empty()) {
    out.Set("nodeSelector", SortedStringMap(*selector));
  }
  CopyTyped(spec, "affinity", CoreType("Affinity"), &out);
  CopyTypedList(spec, "tolerations", CoreType("Toleration"), &out);
  CopyTypedList(spec, "schedulingGates", CoreType("PodSchedulingGate"), &out);
  if (trainer::ReleaseOf(version).patch_termination_grace_period) CopyPresent(spec, "terminationGracePeriodSeconds", &out);
  return out;
}

// The {metadata, spec} pairs of JobSetTemplatePatch, JobTemplatePatch and
// PodTemplatePatch; `spec` is built by `inner`.
template <typename Inner>
doc::Node MetaAndSpec(const doc::Node& from, Inner inner) {
  doc::Node out = doc::Node::Mapping();
  if (!from.is_mapping()) return out;
  CopyObjectMeta(from, &out);
  if (const doc::Node* spec = from.Find("spec"); Present(spec)) out.Set("spec", inner(*spec));
  return out;
}

doc::Node ReplicatedJobPatch(const doc::Node& job, trainer::TrainerVersion version) {
  doc::Node out = doc::Node::Mapping();
  if (!job.is_mapping()) return out;
  CopyNonEmptyString(job, "name", &out);
  const doc::Node* job_template = job.Find("template");
  if (!Present(job_template)) return out;
  out.Set("template", MetaAndSpec(*job_template, [&](const doc::Node& job_spec) {
            doc::Node spec = doc::Node::Mapping();
            const doc::Node* pod_template = job_spec.is_mapping() ? job_spec.Find("template") : nullptr;
            if (Present(pod_template)) {
              spec.Set("template", MetaAndSpec(*pod_template, [&](const doc::Node& pod_spec) {
                         return PodSpecPatch(pod_spec, version);
                       }));
            }
            return spec;
          }));
  return out;
}

doc::Node RuntimePatch(const doc::Node& entry, trainer::TrainerVersion version) {
  doc::Node out = doc::Node::Mapping();
  if (!entry.is_mapping()) return out;
  CopyNonEmptyString(entry, "manager", &out);
  CopyPresent(entry, "time", &out);
  const doc::Node* runtime_spec = entry.Find("trainingRuntimeSpec");
  if (!Present(runtime_spec)) return out;
  doc::Node runtime_out = doc::Node::Mapping();
  const doc::Node* jobset_template = runtime_spec->is_mapping() ? runtime_spec->Find("template") : nullptr;
  if (Present(jobset_template)) {
    runtime_out.Set("template", MetaAndSpec(*jobset_template, [&](const doc::Node& jobset_spec) {
                      doc::Node spec = doc::Node::Mapping();
                      const doc::Node* jobs = jobset_spec.is_mapping() ? jobset_spec.Find("replicatedJobs") : nullptr;
                      if (NonEmptyList(jobs)) {
                        doc::Node list = doc::Node::Sequence();
                        for (const doc::Node& job : jobs->items()) list.push_back(ReplicatedJobPatch(job, version));
                        spec.Set("replicatedJobs", list);
                      }
                      return spec;
                    }));
  }
  out.Set("trainingRuntimeSpec", runtime_out);
  return out;
}

}  // namespace

std::string RuntimePatchesJson(const doc::Node* patches, trainer::TrainerVersion version) {
  if (!NonEmptyList(patches)) return "null";
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& entry : patches->items()) out.push_back(RuntimePatch(entry, version));
  return WriteOrdered(out);
}

std::string RuntimePatchContentJson(const doc::Node& entry, trainer::TrainerVersion version) {
  doc::Node patch = RuntimePatch(entry, version);
  doc::Node out = doc::Node::Mapping();
  if (patch.is_mapping()) {
    for (const doc::Field& field : patch.fields()) {
      if (field.key != "time") out.Set(field.key, field.value);
    }
  }
  return WriteOrdered(out);
}

}  // namespace tjr::validate
