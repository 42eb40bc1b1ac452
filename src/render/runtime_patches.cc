#include "render/runtime_patches.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "doc/path.h"
#include "render/go_types.h"
#include "render/overrides.h"
#include "render/stored_field.h"
#include "render/typed_memo.h"
#include "smp/strategic_merge.h"
#include "typed/round_trip.h"

namespace tjr::render {
namespace {

bool Absent(const doc::Node* value) { return value == nullptr || value->is_null(); }

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
  const schema::Type* patch_type = (*types)->job_set_spec_patch;
  if (patch_type == nullptr) return MakeError(spec->location(), "", "this Trainer release has no JobSetSpecPatch");
  // json.Marshal of the typed *JobSetSpecPatch: the release's API types
  // decide which fields survive (terminationGracePeriodSeconds from v2.3.0 on).
  return StoredValue(*spec, *patch_type);
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
    case trainer::PatchMerge::kPodTemplateOverrides:
      return MergePodTemplateOverrides(trainjob, jobset_spec, version);
    case trainer::PatchMerge::kRuntimePatchesPerJob: return MergeRuntimePatchesPerJob(trainjob, jobset_spec, version);
    case trainer::PatchMerge::kRuntimePatchesWholeSpec:
      return MergeRuntimePatchesWholeSpec(trainjob, jobset_spec, version);
  }
  return jobset_spec;
}

}  // namespace tjr::render
