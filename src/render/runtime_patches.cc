#include "render/runtime_patches.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "render/go_types.h"
#include "render/overrides.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/typed_fields.h"
#include "render/typed_memo.h"
#include "smp/strategic_merge.h"
#include "typed/round_trip.h"

namespace tjr::render {
namespace {

bool Absent(const doc::Node* value) { return value == nullptr || value->is_null(); }

// A *metav1.ObjectMeta field.
Status CopyMeta(const doc::Node& from, const GoTypes& types, doc::Node* to) {
  const doc::Node* meta = from.Find("metadata");
  if (Absent(meta)) return Ok();
  Result<doc::Node> typed_meta = typed::TypedRoundTrip(*meta, *types.object_meta);
  if (!typed_meta.ok()) return typed_meta.take_error();
  to->Set("metadata", *std::move(typed_meta));
  return Ok();
}

// ContainerPatch: name, env, volumeMounts, securityContext.
Result<doc::Node> ContainerPatch(const doc::Node& item, const GoTypes& types) {
  doc::Node out = doc::Node::Mapping(item.location());
  if (!item.is_mapping()) return out;  // a null element decodes to the zero struct
  CopyName(item, &out);
  for (std::string_view key : {"env", "volumeMounts"}) {
    if (Status s = CopyOmitEmpty(item, key, *types.container, &out); !s.ok()) return s.take_error();
  }
  if (Status s = CopyPointer(item, "securityContext", *types.container, &out); !s.ok()) return s.take_error();
  return out;
}

Status CopyContainers(const doc::Node& spec, std::string_view key, const GoTypes& types, doc::Node* to) {
  const doc::Node* list = spec.Find(key);
  if (list == nullptr || !list->is_sequence() || list->empty()) return Ok();
  doc::Node out = doc::Node::Sequence(list->location());
  for (const doc::Node& item : list->items()) {
    Result<doc::Node> reduced = ContainerPatch(item, types);
    if (!reduced.ok()) return reduced.take_error();
    out.push_back(*std::move(reduced));
  }
  to->Set(std::string(key), std::move(out));
  return Ok();
}

// PodSpecPatch, in its Go field order (trainjob_types.go).
Result<doc::Node> PodSpecPatch(const doc::Node& spec, const GoTypes& types, trainer::TrainerVersion version) {
  doc::Node out = doc::Node::Mapping(spec.location());
  if (!spec.is_mapping()) return out;
  const schema::Type& pod_spec = *types.pod_spec;
  if (Status s = CopyPointer(spec, "serviceAccountName", pod_spec, &out); !s.ok()) return s.take_error();
  if (Status s = CopyOmitEmpty(spec, "volumes", pod_spec, &out); !s.ok()) return s.take_error();
  for (std::string_view key : {"initContainers", "containers"}) {
    if (Status s = CopyContainers(spec, key, types, &out); !s.ok()) return s.take_error();
  }
  if (Status s = CopyOmitEmpty(spec, "imagePullSecrets", pod_spec, &out); !s.ok()) return s.take_error();
  if (Status s = CopyPointer(spec, "securityContext", pod_spec, &out); !s.ok()) return s.take_error();
  if (Status s = CopyOmitEmpty(spec, "nodeSelector", pod_spec, &out); !s.ok()) return s.take_error();
  if (Status s = CopyPointer(spec, "affinity", pod_spec, &out); !s.ok()) return s.take_error();
  for (std::string_view key : {"tolerations", "schedulingGates"}) {
    if (Status s = CopyOmitEmpty(spec, key, pod_spec, &out); !s.ok()) return s.take_error();
  }
  // Added to PodSpecPatch in v2.3.0 (#3324); v2.2's API server prunes it.
  if (trainer::ReleaseOf(version).patch_termination_grace_period) {
    if (Status s = CopyPointer(spec, "terminationGracePeriodSeconds", pod_spec, &out); !s.ok()) {
      return s.take_error();
    }
  }
  return out;
}

// {metadata?, spec?} where spec is built by `spec_patch`.
template <typename SpecFn>
Result<doc::Node> MetaAndSpec(const doc::Node& from, const GoTypes& types, SpecFn spec_patch) {
  doc::Node out = doc::Node::Mapping(from.location());
  if (!from.is_mapping()) return out;
  if (Status s = CopyMeta(from, types, &out); !s.ok()) return s.take_error();
  const doc::Node* spec = from.Find("spec");
  if (Absent(spec)) return out;
  Result<doc::Node> reduced = spec_patch(*spec);
  if (!reduced.ok()) return reduced;
  out.Set("spec", *std::move(reduced));
  return out;
}

// JobTemplatePatch {metadata, spec: JobSpecPatch {template: PodTemplatePatch}}.
Result<doc::Node> JobTemplatePatch(const doc::Node& from, const GoTypes& types, trainer::TrainerVersion version) {
  auto pod_spec = [&](const doc::Node& spec) { return PodSpecPatch(spec, types, version); };
  auto pod_template = [&](const doc::Node& t) { return MetaAndSpec(t, types, pod_spec); };
  auto job_spec = [&](const doc::Node& spec) -> Result<doc::Node> {
    doc::Node out = doc::Node::Mapping(spec.location());
    const doc::Node* t = spec.is_mapping() ? spec.Find("template") : nullptr;
    if (Absent(t)) return out;
    Result<doc::Node> reduced = pod_template(*t);
    if (!reduced.ok()) return reduced;
    out.Set("template", *std::move(reduced));
    return out;
  };
  return MetaAndSpec(from, types, job_spec);
}

// The entry's trainingRuntimeSpec.template.spec, or nullptr (skipped upstream).
const doc::Node* PatchSpec(const doc::Node& entry) {
  const doc::Node* spec = doc::FindPath(entry, {"trainingRuntimeSpec", "template", "spec"});
  return Absent(spec) ? nullptr : spec;
}

const doc::Node* RuntimePatches(const doc::Node& trainjob) {
  const doc::Node* patches = doc::FindPath(trainjob, {"spec", "runtimePatches"});
  return patches != nullptr && patches->is_sequence() ? patches : nullptr;
}

}  // namespace

Result<doc::Node> JobSetSpecPatchJson(const doc::Node& runtime_patch, trainer::TrainerVersion version) {
  const doc::Node* spec = PatchSpec(runtime_patch);
  if (spec == nullptr) return doc::Node();
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  doc::Node out = doc::Node::Mapping(spec->location());
  const doc::Node* jobs = spec->is_mapping() ? spec->Find("replicatedJobs") : nullptr;
  if (jobs == nullptr || !jobs->is_sequence() || jobs->empty()) return out;
  doc::Node list = doc::Node::Sequence(jobs->location());
  for (const doc::Node& job : jobs->items()) {
    doc::Node item = doc::Node::Mapping(job.location());
    if (job.is_mapping()) {
      CopyName(job, &item);
      if (const doc::Node* t = job.Find("template"); !Absent(t)) {
        Result<doc::Node> reduced = JobTemplatePatch(*t, **types, version);
        if (!reduced.ok()) return reduced;
        item.Set("template", *std::move(reduced));
      }
    }
    list.push_back(std::move(item));
  }
  out.Set("replicatedJobs", std::move(list));
  return out;
}

Result<doc::Node> MergeRuntimePatchesPerJob(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                            trainer::TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  // The controller holds the runtime as a typed Go value: decode it once.
  Result<doc::Node> typed_spec = TypedRoundTripMemo(jobset_spec, *(*types)->job_set_spec);
  if (!typed_spec.ok()) return typed_spec;
  const doc::Node* patches = RuntimePatches(trainjob);
  if (patches == nullptr || patches->empty()) return typed_spec;
  const schema::Type& template_type = *(*types)->job_template_spec;
  doc::Node merged = *std::move(typed_spec);  // copy-on-write: only patched jobs are copied
  const doc::Node* jobs = merged.Find("replicatedJobs");
  if (jobs == nullptr || !jobs->is_sequence()) return merged;
  const std::size_t job_count = jobs->size();
  for (const doc::Node& entry : patches->items()) {
    Result<doc::Node> patch_spec = JobSetSpecPatchJson(entry, version);
    if (!patch_spec.ok()) return patch_spec;
    const doc::Node* job_patches = patch_spec->is_mapping() ? patch_spec->Find("replicatedJobs") : nullptr;
    if (job_patches == nullptr) continue;
    for (const doc::Node& job_patch : job_patches->items()) {
      const doc::Node* patch = job_patch.Find("template");
      if (patch == nullptr) continue;
      const std::string name = doc::StringAtPath(job_patch, {"name"});
      for (std::size_t i = 0; i < job_count; ++i) {
        const doc::Node& job = merged.Find("replicatedJobs")->items()[i];
        if (doc::StringAtPath(job, {"name"}) != name) continue;
        // Already typed: decoded above or by an earlier patch.
        const doc::Node* current = job.Find("template");
        Result<doc::Node> patched = smp::StrategicMerge(current != nullptr ? *current : doc::Node(), *patch, template_type);
        if (!patched.ok()) return patched;
        Result<doc::Node> decoded =
            typed::TypedRoundTrip(*patched, template_type, current != nullptr ? *current : doc::Node());
        if (!decoded.ok()) return decoded;
        merged.FindMutable("replicatedJobs")->mutable_items()[i].Set("template", *std::move(decoded));
      }
    }
  }
  return merged;
}

Result<doc::Node> MergeRuntimePatchesWholeSpec(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                               trainer::TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  const schema::Type& spec_type = *(*types)->job_set_spec;
  // The controller holds the runtime as a typed Go value: decode it once.
  Result<doc::Node> typed_spec = TypedRoundTripMemo(jobset_spec, spec_type);
  if (!typed_spec.ok()) return typed_spec;
  const doc::Node* patches = RuntimePatches(trainjob);
  if (patches == nullptr || patches->empty()) return typed_spec;

  std::map<std::string, std::size_t, std::less<>> order;
  if (const doc::Node* jobs = jobset_spec.Find("replicatedJobs"); jobs != nullptr && jobs->is_sequence()) {
    for (std::size_t i = 0; i < jobs->size(); ++i) order[doc::StringAtPath(jobs->items()[i], {"name"})] = i;
  }
  doc::Node merged = *std::move(typed_spec);
  for (const doc::Node& entry : patches->items()) {
    Result<doc::Node> patch = JobSetSpecPatchJson(entry, version);
    if (!patch.ok()) return patch;
    if (patch->is_null()) continue;
    // json.Marshal of the typed spec: `merged` is typed already.
    Result<doc::Node> patched = smp::StrategicMerge(merged, *patch, spec_type);
    if (!patched.ok()) return patched;
    Result<doc::Node> decoded = typed::TypedRoundTrip(*patched, spec_type, merged);
    if (!decoded.ok()) return decoded;
    merged = *std::move(decoded);
  }
  // sort.SliceStable by the runtime index; a new name is order[name]'s zero value.
  if (doc::Node* jobs = merged.FindMutable("replicatedJobs"); jobs != nullptr && jobs->is_sequence()) {
    auto index = [&](const doc::Node& job) {
      auto found = order.find(doc::StringAtPath(job, {"name"}));
      return found != order.end() ? found->second : 0;
    };
    std::vector<doc::Node>& items = jobs->mutable_items();
    std::stable_sort(items.begin(), items.end(),
                     [&](const doc::Node& a, const doc::Node& b) { return index(a) < index(b); });
  }
  return merged;
}

Result<doc::Node> MergeJobSetTemplate(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                      trainer::TrainerVersion version) {
  switch (trainer::ReleaseOf(version).patch_merge) {
    case trainer::PatchMerge::kPodTemplateOverrides: return MergePodTemplateOverrides(trainjob, jobset_spec);
    case trainer::PatchMerge::kRuntimePatchesPerJob: return MergeRuntimePatchesPerJob(trainjob, jobset_spec, version);
    case trainer::PatchMerge::kRuntimePatchesWholeSpec:
      return MergeRuntimePatchesWholeSpec(trainjob, jobset_spec, version);
  }
  return jobset_spec;
}

}  // namespace tjr::render
