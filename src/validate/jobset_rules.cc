// The JobSet plugin's Validate (plugins/jobset/jobset.go:86-186 at v2.1.0),
// run against the runtime template after podTemplateOverrides are merged.
#include <map>
#include <optional>
#include <set>
#include <string>

#include "validate/go_json.h"
#include "validate/rules.h"

namespace tjr::validate {
namespace {

constexpr std::string_view kDatasetInitializer = "dataset-initializer";
constexpr std::string_view kModelInitializer = "model-initializer";
constexpr std::string_view kNode = "node";

}  // namespace

ContainerSets ContainerNamesByJob(const doc::Node& jobset_spec) {
  ContainerSets sets;
  for (const doc::Node& job : doc::Items(doc::At(&jobset_spec, "replicatedJobs"))) {
    std::set<std::string>& names = sets[doc::StringAt(&job, "name")];
    names.clear();
    const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&job, "template"), "spec"), "template"), "spec");
    for (std::string_view list : {"initContainers", "containers"}) {
      for (const doc::Node& container : doc::Items(doc::At(pod_spec, list))) names.insert(doc::StringAt(&container, "name"));
    }
  }
  return sets;
}

namespace {

// Whether container `job` of every job named `job` has a volumeMount named
// "initializer" (jobset.go:112-170 at v2.3.0: any such container counts).
bool HasInitializerMount(const WebhookInfo& info, std::string_view job) {
  for (const doc::Node& rjob : doc::Items(doc::At(&info.jobset_spec, "replicatedJobs"))) {
    if (doc::StringAt(&rjob, "name") != job) continue;
    const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&rjob, "template"), "spec"), "template"), "spec");
    for (const doc::Node& container : doc::Items(doc::At(pod_spec, "containers"))) {
      if (doc::StringAt(&container, "name") != job) continue;
      for (const doc::Node& mount : doc::Items(doc::At(&container, "volumeMounts"))) {
        if (doc::StringAt(&mount, "name") == "initializer") return true;
      }
    }
  }
  return false;
}

void CheckInitializer(const WebhookInfo& info, const ContainerSets& sets, std::string_view job,
                      std::string_view config, Report* report) {
  const doc::Node* spec = doc::At(info.trainjob, "spec");
  const doc::Node* section = doc::At(doc::At(spec, "initializer"), job == kDatasetInitializer ? "dataset" : "model");
  if (section == nullptr) return;
  const doc::Node* runtime_ref = doc::At(spec, "runtimeRef");
  const BadValue value = BadValue::Json(RuntimeRefJson(runtime_ref, info.options->version));
  auto found = sets.find(job);
  std::string detail;
  if (found == sets.end()) {
    detail = "must have " + std::string(job) + " job when trainJob is configured with input " + std::string(config);
  } else if (found->second.count(std::string(job)) == 0) {
    detail = "must have container with name - " + std::string(job) + " in the " + std::string(job) + " job";
  } else if (trainer::ReleaseOf(info.options->version).webhook_v23_rules && !HasInitializerMount(info, job)) {
    // v2.3.0 (runtimepatches spec §5.8): the initializer container must
    // mount the `initializer` volume.
    detail = "must have volumeMount with name - initializer in container " + std::string(job) + " of the " +
             std::string(job) + " job";
  } else {
    return;
  }
  report->Add({ErrorType::kInvalid, "spec.runtimeRef", value, detail}, Either(runtime_ref, section));
}

// Changes to the overrides, compared as the typed values they decode to
// (equality.Semantic.DeepEqual: nil and empty alike, quantities by value).
bool OverridesChanged(const doc::Node* old_spec, const doc::Node* new_spec, trainer::TrainerVersion version) {
  const doc::Node* old_overrides = doc::At(old_spec, "podTemplateOverrides");
  const doc::Node* new_overrides = doc::At(new_spec, "podTemplateOverrides");
  // Equal trees decode to equal values; only differing ones need decoding
  // (a diff checks every affected TrainJob against its base version).
  if (old_overrides == nullptr && new_overrides == nullptr) return false;
  if (old_overrides != nullptr && new_overrides != nullptr && *old_overrides == *new_overrides) return false;
  return PodTemplateOverridesJson(old_overrides != nullptr ? *old_overrides : doc::Node(), version) !=
         PodTemplateOverridesJson(new_overrides != nullptr ? *new_overrides : doc::Node(), version);
}

void CheckImmutability(const WebhookInfo& info, Report* report) {
  if (info.old == nullptr) return;
  const doc::Node* spec = doc::At(info.trainjob, "spec");
  if (!OverridesChanged(doc::At(info.old, "spec"), spec, info.options->version)) return;
  const doc::Node* at = Either(doc::At(spec, "podTemplateOverrides"), spec);
  const doc::Node* suspend = doc::At(spec, "suspend");
  if (suspend == nullptr || !suspend->is_bool() || !suspend->bool_value()) {
    report->Add({ErrorType::kForbidden, "spec.podTemplateOverrides", BadValue::Omit(),
                 "PodTemplateOverrides can only be modified when the TrainJob is suspended"},
                at);
    return;
  }
  const doc::Node* statuses = doc::At(doc::At(info.options->existing_jobset, "status"), "replicatedJobsStatus");
  for (const doc::Node& status : doc::Items(statuses)) {
    const doc::Node* active = doc::At(&status, "active");
    if (active != nullptr && active->is_int() && active->int_value() > 0) {
      report->Add({ErrorType::kForbidden, "spec.podTemplateOverrides", BadValue::Omit(),
                   "PodTemplateOverrides cannot be modified when the JobSet's ReplicatedJob " + doc::StringAt(&status, "name") +
                       " is still active"},
                  at);
    }
  }
}

}  // namespace

void CheckInitializerJobs(const WebhookInfo& info, const ContainerSets& sets, Report* report) {
  CheckInitializer(info, sets, kDatasetInitializer, "datasetConfig", report);
  CheckInitializer(info, sets, kModelInitializer, "modelConfig", report);
}

void CheckJobSetPlugin(const WebhookInfo& info, Report* report) {
  const ContainerSets sets = ContainerNamesByJob(info.jobset_spec);
  CheckInitializerJobs(info, sets, report);
  // From v2.2 the runtimePatches rules replace the podTemplateOverrides
  // ones below (spec runtimepatches §3.2).
  if (trainer::ReleaseOf(info.options->version).runtime_patches) return;
  CheckImmutability(info, report);

  const doc::Node* overrides = doc::At(doc::At(info.trainjob, "spec"), "podTemplateOverrides");
  if (overrides == nullptr) return;
  // Every error carries the whole list, rendered once, and only if needed.
  std::optional<BadValue> value;
  auto add = [&](std::string detail, const doc::Node* at) {
    if (!value.has_value()) value = BadValue::Json(PodTemplateOverridesJson(*overrides, info.options->version));
    report->Add({ErrorType::kInvalid, "spec.podTemplateOverrides", *value, std::move(detail)}, at);
  };
  static const std::set<std::string> kNoContainers;
  for (const doc::Node& entry : doc::Items(overrides)) {
    const doc::Node* override_spec = doc::At(&entry, "spec");
    for (const doc::Node& target : doc::Items(doc::At(&entry, "targetJobs"))) {
      const std::string job = doc::StringAt(&target, "name");
      auto found = sets.find(job);
      if (found == sets.end()) add("must not have targetJob that doesn't exist in the runtime job template", &target);
      const std::set<std::string>& containers = found != sets.end() ? found->second : kNoContainers;
      if (override_spec == nullptr) continue;
      for (const doc::Node& container : doc::Items(doc::At(override_spec, "initContainers"))) {
        if (containers.count(doc::StringAt(&container, "name")) == 0) {
          add("must not have initContainer that doesn't exist in the runtime job " + job, &container);
        }
      }
      for (const doc::Node& container : doc::Items(doc::At(override_spec, "containers"))) {
        const std::string name = doc::StringAt(&container, "name");
        if (containers.count(name) == 0) {
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
