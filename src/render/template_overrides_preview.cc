#include "render/template_overrides_preview.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tjr::render {
namespace {

constexpr std::string_view kField = "spec.templateOverrides";

Diagnostic ShapeError(const doc::Node& at, const std::string& path, const std::string& message) {
  return MakeError(at.location(), path, message);
}

// The names of an override's targetJobs, or an error.
Result<std::vector<std::string>> TargetJobs(const doc::Node& override_entry, const std::string& path) {
  std::vector<std::string> names;
  const doc::Node* targets = override_entry.Find("targetJobs");
  if (targets == nullptr || targets->is_null()) return names;
  if (!targets->is_sequence()) return ShapeError(*targets, path + ".targetJobs", "must be a list of {name: JOB}");
  for (std::size_t i = 0; i < targets->size(); ++i) {
    const doc::Node& target = (*targets)[i];
    const doc::Node* name = target.is_mapping() ? target.Find("name") : nullptr;
    if (name == nullptr || !name->is_string() || name->string_value().empty()) {
      return ShapeError(target, path + ".targetJobs[" + std::to_string(i) + "].name", "must be a job name");
    }
    names.push_back(name->string_value());
  }
  return names;
}

// {manager, time?, trainingRuntimeSpec: {template: TEMPLATE}}.
doc::Node Patch(const std::string& manager, const doc::Node& override_entry, doc::Node jobset_template) {
  const Location at = override_entry.location();
  doc::Node patch = doc::Node::Mapping(at);
  patch.Set("manager", doc::Node::String(manager, at));
  if (const doc::Node* time = override_entry.Find("time"); time != nullptr && !time->is_null()) {
    patch.Set("time", *time);
  }
  doc::Node spec = doc::Node::Mapping(at);
  spec.Set("template", std::move(jobset_template));
  patch.Set("trainingRuntimeSpec", std::move(spec));
  return patch;
}

// template.spec.replicatedJobs: one entry per target job with `job_template`.
doc::Node ReplicatedJobs(const std::vector<std::string>& names, const doc::Node& job_template, const Location& at) {
  doc::Node jobs = doc::Node::Sequence(at);
  for (const std::string& name : names) {
    doc::Node job = doc::Node::Mapping(at);
    job.Set("name", doc::Node::String(name, at));
    job.Set("template", job_template);
    jobs.push_back(std::move(job));
  }
  doc::Node spec = doc::Node::Mapping(at);
  spec.Set("replicatedJobs", std::move(jobs));
  doc::Node jobset_template = doc::Node::Mapping(at);
  jobset_template.Set("spec", std::move(spec));
  return jobset_template;
}

Result<doc::Node> JobOverridePatch(const std::string& manager, const doc::Node& entry, const std::string& path) {
  if (!entry.is_mapping()) return ShapeError(entry, path, "must be a mapping");
  for (const doc::Field& f : entry.fields()) {
    if (f.key != "time" && f.key != "targetJobs" && f.key != "metadata") {
      return ShapeError(f.value, path + "." + f.key, "not a field of a job override (time, targetJobs, metadata)");
    }
  }
  Result<std::vector<std::string>> targets = TargetJobs(entry, path);
  if (!targets.ok()) return targets.take_error();
  const Location at = entry.location();
  const doc::Node* metadata = entry.Find("metadata");
  doc::Node meta = metadata != nullptr && metadata->is_mapping() ? *metadata : doc::Node::Mapping(at);
  if (targets->empty()) {
    // The JobSet's own metadata: only labels and annotations are read.
    doc::Node jobset_meta = doc::Node::Mapping(at);
    for (std::string_view key : {"labels", "annotations"}) {
      if (const doc::Node* value = meta.Find(key)) jobset_meta.Set(std::string(key), *value);
    }
    doc::Node jobset_template = doc::Node::Mapping(at);
    jobset_template.Set("metadata", std::move(jobset_meta));
    return Patch(manager, entry, std::move(jobset_template));
  }
  doc::Node job_template = doc::Node::Mapping(at);
  job_template.Set("metadata", std::move(meta));
  return Patch(manager, entry, ReplicatedJobs(*targets, job_template, at));
}

Result<doc::Node> PodOverridePatch(const std::string& manager, const doc::Node& entry, const std::string& path) {
  if (!entry.is_mapping()) return ShapeError(entry, path, "must be a mapping");
  for (const doc::Field& f : entry.fields()) {
    if (f.key != "time" && f.key != "targetJobs" && f.key != "metadata" && f.key != "spec") {
      return ShapeError(f.value, path + "." + f.key,
                        "not a field of a pod override (time, targetJobs, metadata, spec)");
    }
  }
  Result<std::vector<std::string>> targets = TargetJobs(entry, path);
  if (!targets.ok()) return targets.take_error();
  if (targets->empty()) return ShapeError(entry, path + ".targetJobs", "a pod override needs targetJobs");
  const Location at = entry.location();
  doc::Node pod_template = doc::Node::Mapping(at);
  for (std::string_view key : {"metadata", "spec"}) {
    if (const doc::Node* value = entry.Find(key); value != nullptr && !value->is_null()) {
      pod_template.Set(std::string(key), *value);
    }
  }
  doc::Node job_spec = doc::Node::Mapping(at);
  job_spec.Set("template", std::move(pod_template));
  doc::Node job_template = doc::Node::Mapping(at);
  job_template.Set("spec", std::move(job_spec));
  return Patch(manager, entry, ReplicatedJobs(*targets, job_template, at));
}

}  // namespace

Result<doc::Node> TemplateOverridesAsRuntimePatches(const doc::Node& trainjob) {
  const doc::Node* spec = trainjob.Find("spec");
  const doc::Node* overrides = spec != nullptr && spec->is_mapping() ? spec->Find("templateOverrides") : nullptr;
  if (overrides == nullptr) return trainjob;
  if (!overrides->is_sequence()) return ShapeError(*overrides, std::string(kField), "must be a list");

  doc::Node patches = doc::Node::Sequence(overrides->location());
  if (const doc::Node* existing = spec->Find("runtimePatches"); existing != nullptr && existing->is_sequence()) {
    patches = *existing;
  }
  for (std::size_t i = 0; i < overrides->size(); ++i) {
    const doc::Node& entry = (*overrides)[i];
    const std::string path = std::string(kField) + "[" + std::to_string(i) + "]";
    const doc::Node* manager = entry.is_mapping() ? entry.Find("manager") : nullptr;
    if (manager == nullptr || !manager->is_string() || manager->string_value().empty()) {
      return ShapeError(entry, path + ".manager", "is required");
    }
    std::size_t emitted = 0;
    auto name = [&] {
      ++emitted;
      return emitted == 1 ? manager->string_value() : manager->string_value() + "/" + std::to_string(emitted);
    };
    for (std::string_view list_name : {"job", "pod"}) {
      const doc::Node* list = entry.Find(list_name);
      if (list == nullptr || list->is_null()) continue;
      const std::string list_path = path + "." + std::string(list_name);
      if (!list->is_sequence()) return ShapeError(*list, list_path, "must be a list");
      for (std::size_t k = 0; k < list->size(); ++k) {
        const std::string item_path = list_path + "[" + std::to_string(k) + "]";
        Result<doc::Node> patch = list_name == "job" ? JobOverridePatch(name(), (*list)[k], item_path)
                                                     : PodOverridePatch(name(), (*list)[k], item_path);
        if (!patch.ok()) return patch.take_error();
        patches.push_back(*std::move(patch));
      }
    }
  }
  doc::Node out = trainjob;
  doc::Node* out_spec = out.FindMutable("spec");
  out_spec->Erase("templateOverrides");
  if (!patches.empty()) out_spec->Set("runtimePatches", std::move(patches));
  return out;
}

}  // namespace tjr::render
