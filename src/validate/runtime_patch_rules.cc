// The JobSet plugin's Validate from Trainer v2.2.0 on
// (pkg/runtime/framework/plugins/jobset/jobset.go:86-251 at v2.3.0; spec
// trainer-runtimepatches.md §3.2): initializer checks, the update rule on
// runtimePatches, then per patch in list order the manager's form and the
// names it targets, all against the template with the patches merged
// (§3.3), so unknown names only fail where the merge did not add them.
#include <string>
#include <vector>

#include "validate/domain_path.h"
#include "validate/rules.h"
#include "validate/runtime_patches_json.h"

namespace tjr::validate {
namespace {

constexpr std::string_view kDatasetInitializer = "dataset-initializer";
constexpr std::string_view kModelInitializer = "model-initializer";
constexpr std::string_view kNode = "node";
constexpr std::string_view kPatchesPath = "spec.runtimePatches";

bool Present(const doc::Node* node) { return node != nullptr && !node->is_null(); }

bool IsTrue(const doc::Node* node) { return node != nullptr && node->is_bool() && node->bool_value(); }

// The patches as the validating webhook compares them on an update. The
// mutating webhook runs first and gives every entry whose content is
// unchanged (same manager) its stored time back, and a changed one the time
// of the update (§1.8): so `time` never decides, and entries compare in
// order by their content.
std::vector<std::string> PatchesContent(const doc::Node* patches, trainer::TrainerVersion version) {
  std::vector<std::string> out;
  for (const doc::Node& entry : doc::Items(patches)) out.push_back(RuntimePatchContentJson(entry, version));
  return out;
}

// checkRuntimePatchesImmutability (jobset.go:214-251; v2.2.0 at its own
// tag): a change, compared as the typed values (equality.Semantic.DeepEqual:
// nil and empty alike) once the mutating webhook has set `time`, needs a
// suspended TrainJob and no active job in the existing JobSet.
void CheckUpdate(const WebhookInfo& info, Report* report) {
  if (info.old == nullptr) return;
  const trainer::TrainerVersion version = info.options->version;
  const doc::Node* spec = doc::At(info.trainjob, "spec");
  const doc::Node* old_spec = doc::At(info.old, "spec");
  const doc::Node* patches = doc::At(spec, "runtimePatches");
  if (PatchesContent(doc::At(old_spec, "runtimePatches"), version) == PatchesContent(patches, version)) return;
  const doc::Node* at = Either(patches, spec);
  const bool new_suspended = IsTrue(doc::At(spec, "suspend"));
  const bool old_suspended = IsTrue(doc::At(old_spec, "suspend"));
  if (!trainer::ReleaseOf(version).patch_change_if_suspended_before && !new_suspended) {
    report->Add({ErrorType::kForbidden, std::string(kPatchesPath), BadValue::Omit(),
                 "RuntimePatches can only be modified when the TrainJob is suspended"},
                at);
    return;
  }
  if (trainer::ReleaseOf(version).patch_change_if_suspended_before && !old_suspended && !new_suspended) {
    report->Add({ErrorType::kForbidden, std::string(kPatchesPath), BadValue::Omit(),
                 "RuntimePatches can only be modified when the TrainJob is suspended before or after the update"},
                at);
    return;
  }
  for (const doc::Node& status : doc::Items(doc::At(doc::At(info.options->existing_jobset, "status"), "replicatedJobsStatus"))) {
    const doc::Node* active = doc::At(&status, "active");
    if (active != nullptr && active->is_int() && active->int_value() > 0) {
      report->Add({ErrorType::kForbidden, std::string(kPatchesPath), BadValue::Omit(),
                   "RuntimePatches cannot be modified when the JobSet's ReplicatedJob " + doc::StringAt(&status, "name") +
                       " is still active"},
                  at);
    }
  }
}

}  // namespace

void CheckJobSetPluginRuntimePatches(const WebhookInfo& info, Report* report) {
  const ContainerSets sets = ContainerNamesByJob(info.jobset_spec);
  CheckInitializerJobs(info, sets, report);
  CheckUpdate(info, report);

  const doc::Node* patches = doc::At(doc::At(info.trainjob, "spec"), "runtimePatches");
  if (doc::Items(patches).empty()) return;
  // Every error but the manager's carries the whole list, rendered once.
  const BadValue value = BadValue::Json(RuntimePatchesJson(patches, info.options->version));
  auto add = [&](std::string detail, const doc::Node* at) {
    report->Add({ErrorType::kInvalid, std::string(kPatchesPath), value, std::move(detail)}, at);
  };
  for (const doc::Node& entry : doc::Items(patches)) {
    const doc::Node* manager = doc::At(&entry, "manager");
    for (FieldError& error : DomainPrefixedPathErrors(std::string(kPatchesPath) + ".manager",
                                                      doc::StringAt(&entry, "manager"))) {
      report->Add(error, Either(manager, &entry));
    }
    const doc::Node* jobset_spec = doc::At(doc::At(doc::At(&entry, "trainingRuntimeSpec"), "template"), "spec");
    if (!Present(jobset_spec)) continue;
    for (const doc::Node& job_patch : doc::Items(doc::At(jobset_spec, "replicatedJobs"))) {
      const std::string job = doc::StringAt(&job_patch, "name");
      auto found = sets.find(job);
      if (found == sets.end()) {
        add("must not have replicated job that doesn't exist in the runtime job template",
            Either(doc::At(&job_patch, "name"), &job_patch));
        continue;
      }
      const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&job_patch, "template"), "spec"), "template"), "spec");
      if (!Present(pod_spec)) continue;
      for (const doc::Node& container : doc::Items(doc::At(pod_spec, "initContainers"))) {
        if (found->second.count(doc::StringAt(&container, "name")) == 0) {
          add("must not have initContainer that doesn't exist in the runtime job " + job, &container);
        }
      }
      for (const doc::Node& container : doc::Items(doc::At(pod_spec, "containers"))) {
        const std::string name = doc::StringAt(&container, "name");
        if (found->second.count(name) == 0) {
          add("must not have container that doesn't exist in the runtime job " + job, &container);
        } else if (!doc::Items(doc::At(&container, "env")).empty() &&
                   (name == kDatasetInitializer || name == kModelInitializer || name == kNode)) {
          add("must not have envs for the dataset-initializer, model-initializer, node containers",
              doc::At(&container, "env"));
        }
      }
    }
  }
}

}  // namespace tjr::validate
