#include "pipeline/patch_warnings.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "doc/path.h"
#include "pipeline/warnings.h"
#include "schema/schema.h"
#include "trainer/api_types.h"
#include "validate/go_json.h"
#include "validate/runtime_patches_json.h"

namespace tjr::pipeline {
namespace {

std::string Quoted(const std::string& text) { return "\"" + text + "\""; }

Diagnostic Warning(std::string_view rule, Location at, std::string message) {
  return MakeWarning(at, rule, std::move(message));
}

std::string EntryName(const doc::Node& entry, std::size_t index) {
  return Quoted(doc::StringAt(&entry, "manager")) + " (runtimePatches[" + std::to_string(index) + "])";
}

// --- containers and jobs the runtime lacks ------------------------------------

void CheckNames(const doc::Node& entry, std::size_t index, const doc::Node& runtime, trainer::TrainerVersion version,
                Diagnostics* out) {
  const doc::Node* runtime_jobs = doc::AtPath(&runtime, {"spec", "template", "spec", "replicatedJobs"});
  for (const doc::Node& job_patch :
       doc::Items(doc::AtPath(&entry, {"trainingRuntimeSpec", "template", "spec", "replicatedJobs"}))) {
    const std::string job = doc::StringAt(&job_patch, "name");
    const doc::Node* runtime_job = nullptr;
    for (const doc::Node& candidate : doc::Items(runtime_jobs)) {
      if (doc::StringAt(&candidate, "name") == job) runtime_job = &candidate;
    }
    if (runtime_job == nullptr) {
      // v2.2's webhook refuses it (check 2); v2.3's merge adds it.
      if (trainer::ReleaseOf(version).patch_merge == trainer::PatchMerge::kRuntimePatchesWholeSpec) {
        const doc::Node* name = doc::At(&job_patch, "name");
        out->push_back(Warning(kRulePatchJobUnknown, (name != nullptr ? *name : job_patch).location(),
                               "manager " + EntryName(entry, index) + " patches replicatedJob " + Quoted(job) +
                                   ", which the runtime does not have: the controller's merge adds it to the JobSet "
                                   "(sorted first) with only the patched fields and no containers, and the API server "
                                   "refuses the JobSet, so the TrainJob never starts"));
      }
      continue;
    }
    // Other unknown (init) container names draw override-container-unknown
    // from the rendered JobSet (warnings.h); the docs' `trainer` gets its own
    // explanation, which replaces that one (SupersedeRendered).
    std::set<std::string> names;
    for (const doc::Node& container : doc::Items(doc::AtPath(runtime_job, {"template", "spec", "template", "spec", "containers"}))) {
      names.insert(doc::StringAt(&container, "name"));
    }
    if (names.count("trainer") != 0 || names.count("node") == 0) continue;
    for (const doc::Node& container :
         doc::Items(doc::AtPath(&job_patch, {"template", "spec", "template", "spec", "containers"}))) {
      if (doc::StringAt(&container, "name") != "trainer") continue;
      out->push_back(Warning(kRulePatchContainerTrainer, container.location(),
                             "manager " + EntryName(entry, index) + " patches container \"trainer\" of job " +
                                 Quoted(job) + ", but the runtime's trainer container is \"node\" (the upstream "
                                 "runtime-patches guide's examples say \"trainer\"): the controller's strategic "
                                 "merge adds a new container \"trainer\" with only the patched fields and no image, "
                                 "and Kubernetes refuses the Job's pod template (image: Required value)"));
    }
  }
}

// --- two managers on one field -------------------------------------------------

struct Setting {
  std::size_t entry = 0;
  const doc::Node* value = nullptr;
  bool list = false;  // a list replaced as a whole
};

// Every field a patch sets, keyed by a path inside its job ("template.spec.
// template.spec.nodeSelector[pool]"): scalars, map entries and lists without
// a merge strategy are leaves; merged lists are entered item by item through
// their merge key; sets of scalars merged as unions are never in conflict.
class Leaves {
 public:
  explicit Leaves(std::map<std::string, std::vector<Setting>>* out) : out_(out) {}

  void Collect(const doc::Node& node, const schema::Type* type, const std::string& path, std::size_t entry) {
    if (node.is_null()) return;
    if (type == nullptr || type->kind != schema::Type::Kind::kStruct || !node.is_mapping()) {
      (*out_)[path].push_back({entry, &node, false});
      return;
    }
    for (const doc::Field& child : node.fields()) {
      const schema::Field* field = type->FindField(child.key);
      if (field == nullptr || child.value.is_null()) continue;  // dropped by the typed decode
      const std::string child_path = path.empty() ? child.key : path + "." + child.key;
      const schema::Type* child_type = field->type;
      if (child_type == nullptr) continue;
      switch (child_type->kind) {
        case schema::Type::Kind::kStruct: Collect(child.value, child_type, child_path, entry); break;
        case schema::Type::Kind::kMap:
          if (!child.value.is_mapping()) break;
          for (const doc::Field& item : child.value.fields()) {
            (*out_)[child_path + "[" + item.key + "]"].push_back({entry, &item.value, false});
          }
          break;
        case schema::Type::Kind::kSlice: Slice(child.value, *field, child_path, entry); break;
        default: (*out_)[child_path].push_back({entry, &child.value, false}); break;
      }
    }
  }

 private:
  void Slice(const doc::Node& list, const schema::Field& field, const std::string& path, std::size_t entry) {
    bool merge = false;
    for (const std::string& strategy : field.patch_strategies) merge = merge || strategy == "merge";
    if (!merge) {
      (*out_)[path].push_back({entry, &list, true});
      return;
    }
    if (field.patch_merge_key.empty()) return;  // a union of scalars
    for (const doc::Node& item : doc::Items(&list)) {
      const std::string key = doc::StringAt(&item, field.patch_merge_key);
      const std::string item_path = path + "[" + field.patch_merge_key + "=" + key + "]";
      if (!item.is_mapping()) continue;
      // The merge key itself is what matched: not a conflict.
      CollectSkipping(item, field.type->elem, item_path, entry, field.patch_merge_key);
    }
  }

  void CollectSkipping(const doc::Node& item, const schema::Type* type, const std::string& path, std::size_t entry,
                       const std::string& skip) {
    if (type == nullptr || type->kind != schema::Type::Kind::kStruct) return;
    for (const doc::Field& f : item.fields()) {
      if (f.key == skip) continue;
      const schema::Field* field = type->FindField(f.key);
      if (field == nullptr || f.value.is_null() || field->type == nullptr) continue;
      const std::string child_path = path + "." + f.key;
      switch (field->type->kind) {
        case schema::Type::Kind::kStruct: Collect(f.value, field->type, child_path, entry); break;
        case schema::Type::Kind::kMap:
          if (!f.value.is_mapping()) break;
          for (const doc::Field& m : f.value.fields()) {
            (*out_)[child_path + "[" + m.key + "]"].push_back({entry, &m.value, false});
          }
          break;
        case schema::Type::Kind::kSlice: Slice(f.value, *field, child_path, entry); break;
        default: (*out_)[child_path].push_back({entry, &f.value, false}); break;
      }
    }
  }

  std::map<std::string, std::vector<Setting>>* out_;
};

const schema::Type* JobTemplateType(trainer::TrainerVersion version) {
  Result<const schema::Schema*> schema = trainer::ReleaseSchema(version);
  return schema.ok() ? (*schema)->FindType("k8s.io/api/batch/v1.JobTemplateSpec") : nullptr;
}

void Report(const std::string& where, const std::string& field, const std::vector<Setting>& settings,
            const std::vector<doc::Node>& entries, Diagnostics* out) {
  // The first setting and every later one that differs from the value
  // before it: each such pair is a silent override.
  for (std::size_t i = 1; i < settings.size(); ++i) {
    const Setting& earlier = settings[i - 1];
    const Setting& later = settings[i];
    if (earlier.entry == later.entry) continue;
    if (validate::WriteOrdered(*earlier.value) == validate::WriteOrdered(*later.value)) continue;
    const std::string what = later.list ? "the list " + field + " (replaced, not merged)" : field;
    out->push_back(Warning(kRulePatchManagerOverlap, later.value->location(),
                           "managers " + EntryName(entries[earlier.entry], earlier.entry) + " and " +
                               EntryName(entries[later.entry], later.entry) + " both set " + what + " of " + where +
                               ": patches apply in list order, so " + Quoted(doc::StringAt(&entries[later.entry], "manager")) +
                               "'s value silently replaces " + Quoted(doc::StringAt(&entries[earlier.entry], "manager")) +
                               "'s"));
  }
}

void CheckOverlaps(const std::vector<doc::Node>& entries, trainer::TrainerVersion version, Diagnostics* out) {
  const schema::Type* job_template = JobTemplateType(version);
  std::map<std::string, std::map<std::string, std::vector<Setting>>> by_job;
  std::map<std::string, std::vector<Setting>> jobset_metadata;
  std::vector<std::string> job_order;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const doc::Node* jobset_template = doc::AtPath(&entries[i], {"trainingRuntimeSpec", "template"});
    for (std::string_view map : {"labels", "annotations"}) {
      const doc::Node* values = doc::AtPath(jobset_template, {"metadata", map});
      if (values == nullptr || !values->is_mapping()) continue;
      for (const doc::Field& item : values->fields()) {
        jobset_metadata["metadata." + std::string(map) + "[" + item.key + "]"].push_back({i, &item.value, false});
      }
    }
    for (const doc::Node& job_patch : doc::Items(doc::AtPath(jobset_template, {"spec", "replicatedJobs"}))) {
      const std::string job = doc::StringAt(&job_patch, "name");
      const doc::Node* job_template_patch = doc::At(&job_patch, "template");
      if (job_template_patch == nullptr) continue;
      if (by_job.find(job) == by_job.end()) job_order.push_back(job);
      Leaves leaves(&by_job[job]);
      leaves.Collect(*job_template_patch, job_template, "template", i);
    }
  }
  for (const auto& [field, settings] : jobset_metadata) Report("the JobSet", field, settings, entries, out);
  for (const std::string& job : job_order) {
    for (const auto& [field, settings] : by_job[job]) {
      Report("replicatedJob " + Quoted(job), field, settings, entries, out);
    }
  }
}

// --- time --------------------------------------------------------------------

void CheckTime(const std::vector<doc::Node>& entries, trainer::TrainerVersion version, const doc::Node* old,
               Diagnostics* out) {
  const doc::Node* old_entries = doc::AtPath(old, {"spec", "runtimePatches"});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const doc::Node* time = doc::At(&entries[i], "time");
    if (time == nullptr) continue;
    const std::string manager = doc::StringAt(&entries[i], "manager");
    const doc::Node* stored = nullptr;
    for (const doc::Node& candidate : doc::Items(old_entries)) {
      if (doc::StringAt(&candidate, "manager") == manager) stored = &candidate;
    }
    std::string fate;
    if (old == nullptr || stored == nullptr) {
      fate = "it keeps the written value on this create, but on a later update it puts back the stored time "
             "(entry unchanged) or sets the time of the update (entry changed), whatever the manifest says";
    } else if (validate::RuntimePatchContentJson(*stored, version) ==
               validate::RuntimePatchContentJson(entries[i], version)) {
      const doc::Node* stored_time = doc::At(stored, "time");
      fate = "this entry is unchanged, so it puts back the stored time" +
             (stored_time != nullptr && stored_time->is_string() ? " " + stored_time->string_value() : std::string()) +
             " and the written value is discarded";
    } else {
      fate = "this entry changed, so it sets the time of the update and the written value is discarded";
    }
    out->push_back(Warning(kRulePatchTimeWritten, time->location(),
                           "runtimePatches[" + std::to_string(i) + "].time of manager " + Quoted(manager) +
                               " is written by hand, but the Trainer admission webhook owns it: " + fate));
  }
}

}  // namespace

void SupersedeRendered(Diagnostics* rendered, const Diagnostics& patch_warnings) {
  std::vector<Location> replaced;
  for (const Diagnostic& d : patch_warnings) {
    if (d.rule == kRulePatchContainerTrainer) replaced.push_back(d.location);
  }
  std::erase_if(*rendered, [&](const Diagnostic& d) {
    if (d.rule != kRuleUnknownContainer) return false;
    return std::any_of(replaced.begin(), replaced.end(), [&](const Location& at) {
      return at.line == d.location.line && at.column == d.location.column && at.file == d.location.file;
    });
  });
}

Diagnostics CheckRuntimePatches(const doc::Node& trainjob, const doc::Node& runtime, trainer::TrainerVersion version,
                                const doc::Node* old) {
  Diagnostics out;
  if (!trainer::ReleaseOf(version).runtime_patches) return out;
  const std::vector<doc::Node>& entries = doc::Items(doc::AtPath(&trainjob, {"spec", "runtimePatches"}));
  for (std::size_t i = 0; i < entries.size(); ++i) CheckNames(entries[i], i, runtime, version, &out);
  CheckOverlaps(entries, version, &out);
  CheckTime(entries, version, old, &out);
  return out;
}

}  // namespace tjr::pipeline
