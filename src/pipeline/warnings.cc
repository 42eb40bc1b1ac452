#include "pipeline/warnings.h"

#include <set>
#include <string>

#include "doc/path.h"

namespace tjr::pipeline {
namespace {

std::string Quoted(const std::string& text) { return "\"" + text + "\""; }

Diagnostic Warning(std::string_view rule, Location at, std::string message) {
  return MakeWarning(at, rule, std::move(message));
}

// The TrainJob's overrides that target `job`, in list order: the
// podTemplateOverrides entries naming it and the pod templates of the
// runtimePatches' replicatedJobs patches of that name, both of the shape
// {metadata, spec: PodSpec}.
std::vector<const doc::Node*> OverridesFor(const doc::Node& trainjob, const std::string& job) {
  std::vector<const doc::Node*> found;
  for (const doc::Node& entry : doc::Items(doc::FindPath(&trainjob, {"spec", "runtimePatches"}))) {
    for (const doc::Node& patch :
         doc::Items(doc::FindPath(&entry, {"trainingRuntimeSpec", "template", "spec", "replicatedJobs"}))) {
      const doc::Node* pod = doc::FindPath(&patch, {"template", "spec", "template"});
      if (doc::StringAt(&patch, "name") == job && pod != nullptr && pod->is_mapping()) found.push_back(pod);
    }
  }
  for (const doc::Node& entry : doc::Items(doc::FindPath(&trainjob, {"spec", "podTemplateOverrides"}))) {
    for (const doc::Node& target : doc::Items(entry.Find("targetJobs"))) {
      if (doc::StringAt(&target, "name") == job) {
        found.push_back(&entry);
        break;
      }
    }
  }
  return found;
}

// The last node of `list` (in any override for the job) whose `key` is
// `value`; `list` is reached through `path` from the override's spec.
const doc::Node* LastInOverrides(const std::vector<const doc::Node*>& overrides,
                                 std::initializer_list<std::string_view> path,
                                 std::string_view key, const std::string& value) {
  const doc::Node* last = nullptr;
  for (const doc::Node* entry : overrides) {
    for (const doc::Node& item : doc::Items(doc::FindPath(doc::FindPath(entry, {"spec"}), path))) {
      if (doc::StringAt(&item, key) == value) last = &item;
    }
  }
  return last;
}

// The last entry of a container's list (`env`, `volumeMounts`) in the
// overrides, matched by container name and the entry's `key`.
const doc::Node* LastInOverrideContainers(const std::vector<const doc::Node*>& overrides,
                                          std::string_view containers,
                                          const std::string& container, std::string_view list,
                                          std::string_view key, const std::string& value) {
  const doc::Node* last = nullptr;
  for (const doc::Node* entry : overrides) {
    for (const doc::Node& c : doc::Items(doc::FindPath(entry, {"spec", containers}))) {
      if (doc::StringAt(&c, "name") != container) continue;
      for (const doc::Node& item : doc::Items(c.Find(list))) {
        if (doc::StringAt(&item, key) == value) last = &item;
      }
    }
  }
  return last;
}

// The item of `list` whose `key` is `value` (the first), or nullptr.
const doc::Node* Named(const doc::Node* list, std::string_view key, const std::string& value) {
  for (const doc::Node& item : doc::Items(list)) {
    if (doc::StringAt(&item, key) == value) return &item;
  }
  return nullptr;
}

// The runtime template's pod spec of job `job`, or nullptr.
const doc::Node* RuntimePod(const doc::Node& runtime, const std::string& job) {
  const doc::Node* found = Named(doc::FindPath(&runtime, {"spec", "template", "spec", "replicatedJobs"}), "name", job);
  return doc::FindPath(found, {"template", "spec", "template", "spec"});
}

// The volumeMount of container `container` that named the rendered `mount`:
// the last override's, else the runtime's, matched by mountPath (the merge
// key) and name, else by name alone.
const doc::Node* MountSource(const std::vector<const doc::Node*>& overrides, const doc::Node* runtime_pod,
                             std::string_view list, const std::string& container, const doc::Node& mount) {
  const std::string name = doc::StringAt(&mount, "name");
  const std::string path = doc::StringAt(&mount, "mountPath");
  auto find = [&](bool by_path) -> const doc::Node* {
    const doc::Node* last = nullptr;
    for (const doc::Node* entry : overrides) {
      for (const doc::Node& c : doc::Items(doc::FindPath(entry, {"spec", list}))) {
        if (doc::StringAt(&c, "name") != container) continue;
        for (const doc::Node& item : doc::Items(c.Find("volumeMounts"))) {
          if (doc::StringAt(&item, "name") == name && (!by_path || doc::StringAt(&item, "mountPath") == path)) last = &item;
        }
      }
    }
    if (last != nullptr) return last;
    const doc::Node* c = Named(doc::FindPath(runtime_pod, {list}), "name", container);
    for (const doc::Node& item : doc::Items(doc::FindPath(c, {"volumeMounts"}))) {
      if (doc::StringAt(&item, "name") == name && (!by_path || doc::StringAt(&item, "mountPath") == path)) return &item;
    }
    return nullptr;
  };
  const doc::Node* exact = find(true);
  return exact != nullptr ? exact : find(false);
}

// "its containers: "a", "b"", "it has no init containers", or, for a job the
// runtime lacks, "the runtime has no such job": what the container was
// looked for in.
std::string RuntimeContainersText(const doc::Node* runtime_pod, std::string_view list) {
  if (runtime_pod == nullptr) return "the runtime has no such job";
  const std::string_view noun = list == "containers" ? "containers" : "init containers";
  std::string names;
  for (const doc::Node& c : doc::Items(runtime_pod->Find(list))) {
    names += (names.empty() ? "" : ", ") + Quoted(doc::StringAt(&c, "name"));
  }
  if (names.empty()) return "it has no " + std::string(noun);
  return "its " + std::string(noun) + ": " + names;
}

class Checker {
 public:
  Checker(const doc::Node& trainjob, const doc::Node& runtime, Diagnostics* out)
      : trainjob_(trainjob), runtime_(runtime), out_(out) {}

  /// `claims`: the JobSet's volumeClaimPolicies template names (JobSet
  /// v0.12.0 adds a volume of each name to the pods that mount it).
  void CheckJob(const doc::Node& job, const std::set<std::string>& claims) {
    job_ = doc::StringAt(&job, "name");
    overrides_ = OverridesFor(trainjob_, job_);
    runtime_pod_ = RuntimePod(runtime_, job_);
    CheckParallelism(job);
    const doc::Node* pod = doc::FindPath(&job, {"template", "spec", "template", "spec"});
    if (pod == nullptr) return;
    std::set<std::string> volumes = claims;
    for (const doc::Node& volume : doc::Items(pod->Find("volumes"))) {
      volumes.insert(doc::StringAt(&volume, "name"));
      CheckVolume(volume);
    }
    for (std::string_view list : {"initContainers", "containers"}) {
      for (const doc::Node& container : doc::Items(pod->Find(list))) {
        CheckContainer(list, container, volumes);
      }
    }
  }

 private:
  Location At(const doc::Node* preferred) const {
    return preferred != nullptr ? preferred->location() : trainjob_.location();
  }

  void CheckVolume(const doc::Node& volume) {
    std::string sources;
    int count = 0;
    for (const doc::Field& field : volume.fields()) {
      if (field.key == "name" || field.value.is_null()) continue;
      sources += (count++ == 0 ? "" : ", ") + field.key;
    }
    if (count < 2) return;
    std::string name = doc::StringAt(&volume, "name");
    out_->push_back(Warning(
        kRuleVolumeTwoSources, At(LastInOverrides(overrides_, {"volumes"}, "name", name)),
        "volume " + Quoted(name) + " of job " + Quoted(job_) + " ends up with " +
            std::to_string(count) + " sources (" + sources +
            "): an override's volume is merged into the runtime's volume of the same name, not "
            "swapped for it; Kubernetes refuses the Job's pod template (may not specify more "
            "than 1 volume type)"));
  }

  void CheckContainer(std::string_view list, const doc::Node& container,
                      const std::set<std::string>& volumes) {
    std::string name = doc::StringAt(&container, "name");
    const std::string kind = list == "containers" ? "container " : "init container ";
    if (doc::StringAt(&container, "image").empty()) {
      const doc::Node* named = LastInOverrides(overrides_, {list}, "name", name);
      const doc::Node* in_runtime = Named(doc::FindPath(runtime_pod_, {list}), "name", name);
      if (in_runtime == nullptr && named != nullptr) {
        out_->push_back(Warning(
            kRuleUnknownContainer, named->location(),
            kind + Quoted(name) + " is not in job " + Quoted(job_) + " of the runtime (" +
                RuntimeContainersText(runtime_pod_, list) +
                "): the JobSet gets a new container with no image, which Kubernetes refuses when the Job is "
                "created (image: Required value)"));
      } else if (in_runtime != nullptr) {
        out_->push_back(Warning(
            kRuleContainerImageMissing, (named != nullptr ? named : in_runtime)->location(),
            kind + Quoted(name) + " of job " + Quoted(job_) +
                " has no image after the merge: the runtime's container has none and nothing in the TrainJob "
                "sets one, so Kubernetes refuses the Job's pod template when the Job is created (image: Required "
                "value)"));
      }
    }
    for (const doc::Node& env : doc::Items(container.Find("env"))) {
      if (doc::StringAt(&env, "value").empty() || doc::FindPath(&env, {"valueFrom"}) == nullptr ||
          doc::FindPath(&env, {"valueFrom"})->is_null()) {
        continue;
      }
      std::string var = doc::StringAt(&env, "name");
      out_->push_back(Warning(
          kRuleEnvValueAndValueFrom,
          At(LastInOverrideContainers(overrides_, list, name, "env", "name", var)),
          "env var " + Quoted(var) + " of container " + Quoted(name) + " in job " + Quoted(job_) +
              " has both value and valueFrom: same-name env vars are merged field by field; "
              "Kubernetes refuses the Job's pod template (valueFrom may not be specified when "
              "value is not empty)"));
    }
    for (const doc::Node& mount : doc::Items(container.Find("volumeMounts"))) {
      std::string volume = doc::StringAt(&mount, "name");
      if (volumes.count(volume) != 0) continue;
      out_->push_back(Warning(
          kRuleMountWithoutVolume, At(MountSource(overrides_, runtime_pod_, list, name, mount)),
          "volumeMount " + Quoted(volume) + " (mountPath " +
              Quoted(doc::StringAt(&mount, "mountPath")) + ") of container " + Quoted(name) +
              " in job " + Quoted(job_) + " names no volume of the pod: Kubernetes refuses the "
              "Job's pod template (volumeMounts name: Not found)"));
    }
  }

  // The trainer job gets the TrainJob's numNodes as parallelism and
  // completions (the trainer PodSet's count, jobset.go SyncParallelCount);
  // 0 leaves its Jobs without pods. (A runtime's mlPolicy.numNodes of 0
  // cannot do it: runtime.go raises the PodSet count to at least 1.)
  void CheckParallelism(const doc::Node& job) {
    const doc::Node* labels = doc::FindPath(&job, {"template", "metadata", "labels"});
    if (doc::StringAt(labels, "trainer.kubeflow.org/trainjob-ancestor-step") != "trainer") return;
    const doc::Node* parallelism = doc::FindPath(&job, {"template", "spec", "parallelism"});
    if (parallelism == nullptr || !parallelism->is_int() || parallelism->int_value() != 0) return;
    const doc::Node* num_nodes = doc::FindPath(&trainjob_, {"spec", "trainer", "numNodes"});
    out_->push_back(Warning(
        kRuleNumNodesZero, At(num_nodes),
        "spec.trainer.numNodes is 0: job " + Quoted(job_) +
            " gets parallelism 0 and completions 0, so its Jobs start no pods and the training never runs"));
  }

  const doc::Node& trainjob_;
  const doc::Node& runtime_;
  Diagnostics* out_;
  std::string job_;
  std::vector<const doc::Node*> overrides_;
  const doc::Node* runtime_pod_ = nullptr;
};

}  // namespace

Diagnostics CheckRendered(const doc::Node& trainjob, const doc::Node& runtime, const std::vector<doc::Node>& objects) {
  Diagnostics out;
  Checker checker(trainjob, runtime, &out);
  for (const doc::Node& object : objects) {
    if (doc::StringAt(&object, "kind") != "JobSet") continue;
    std::set<std::string> claims;
    for (const doc::Node& policy : doc::Items(doc::FindPath(&object, {"spec", "volumeClaimPolicies"}))) {
      for (const doc::Node& t : doc::Items(policy.Find("templates"))) claims.insert(doc::StringAt(doc::FindPath(&t, {"metadata"}), "name"));
    }
    for (const doc::Node& job : doc::Items(doc::FindPath(&object, {"spec", "replicatedJobs"}))) {
      checker.CheckJob(job, claims);
    }
  }
  return out;
}

}  // namespace tjr::pipeline
