// FirstJobs: the Jobs the JobSet controller creates, as constructJob and
// labelAndAnnotateObject build them (pkg/controllers/jobset_controller.go at
// v0.10.1, v0.11.0, v0.12.0; addVolumes in volume_claim_policy.go from
// v0.11.0). Values copied from the replicatedJob keep their nodes, so an
// error in a Job is located at the runtime or TrainJob line that wrote it.
// Not built: ownerReferences (createJobs sets them to the JobSet, which has
// no UID before it exists), and the jobset-uid label's value (the UID; left
// empty, which validates the same way as a UUID). The RestartJob gate is
// off by default at v0.12.0, so no job-restart-attempt label.
#include <string>

#include "admission/jobset.h"
#include "admission/jobset_parts.h"
#include "admission/node_edit.h"
#include "doc/path.h"

namespace tjr::admission {
namespace {

using jobset_parts::IntAt;

constexpr std::string_view kExclusiveKey = "alpha.jobset.sigs.k8s.io/exclusive-topology";
constexpr std::string_view kNodeSelectorStrategyKey = "alpha.jobset.sigs.k8s.io/node-selector";


// The counts labelAndAnnotateObject writes: replicas of all replicatedJobs
// (globalReplicas), of those of a group (groupReplicas), and the indexes of
// a replicatedJob's job 0 among them (globalJobIndex, groupJobIndex).
struct Indexes {
  std::int64_t global_replicas = 0;
  std::int64_t global_index = 0;
  std::int64_t group_replicas = 0;
  std::int64_t group_index = 0;
};

Indexes IndexesOf(const doc::Node& spec, std::string_view job_name, std::string_view group) {
  Indexes out;
  bool job_seen = false, group_job_seen = false;
  for (const doc::Node& job : doc::Items(doc::At(&spec, "replicatedJobs"))) {
    const std::int64_t replicas = IntAt(&job, "replicas", 0);
    const bool is_job = doc::StringAt(&job, "name") == job_name;
    const bool in_group = doc::StringAt(&job, "groupName") == group;
    out.global_replicas += replicas;
    if (!job_seen && !is_job) out.global_index += replicas;
    if (in_group) {
      out.group_replicas += replicas;
      if (!group_job_seen && !is_job) out.group_index += replicas;
    }
    job_seen = job_seen || is_job;
    group_job_seen = group_job_seen || (is_job && in_group);
  }
  return out;
}

// labelAndAnnotateObject for job index `index` on `object` (the Job or its
// pod template): the same keys as labels and as annotations, then the
// exclusive-placement annotations of the JobSet and of the replicatedJob.
void LabelAndAnnotate(doc::Node& object, const doc::Node& jobset, const doc::Node& job, std::int64_t index) {
  const doc::Node* spec = doc::At(&jobset, "spec");
  const std::string jobset_name = doc::StringAtPath(jobset, {"metadata", "name"});
  const std::string space = doc::StringAtPath(jobset, {"metadata", "namespace"});
  const std::string job_name = doc::StringAt(&job, "name");
  const std::string group = doc::StringAt(&job, "groupName");
  const std::string created = jobset_parts::JobName(jobset_name, job_name, index);
  const Indexes indexes = IndexesOf(*spec, job_name, group);
  const std::vector<std::pair<std::string_view, std::string>> values = {
      {"jobset.sigs.k8s.io/jobset-name", jobset_name},
      {"jobset.sigs.k8s.io/jobset-uid", ""},
      {"jobset.sigs.k8s.io/replicatedjob-name", job_name},
      {"jobset.sigs.k8s.io/restart-attempt", "0"},  // status.restarts of a new JobSet
      {"jobset.sigs.k8s.io/replicatedjob-replicas", std::to_string(IntAt(&job, "replicas", 0))},
      {"jobset.sigs.k8s.io/global-replicas", std::to_string(indexes.global_replicas)},
      {"jobset.sigs.k8s.io/job-index", std::to_string(index)},
      // jobHashKey: SHA-1 of "<namespace>/<job name>".
      {"jobset.sigs.k8s.io/job-key", jobset_parts::Sha1Hex(space + "/" + created)},
      {"jobset.sigs.k8s.io/job-global-index", std::to_string(indexes.global_index + index)},
      {"jobset.sigs.k8s.io/group-name", group},
      {"jobset.sigs.k8s.io/group-replicas", std::to_string(indexes.group_replicas)},
      {"jobset.sigs.k8s.io/job-group-index", std::to_string(indexes.group_index + index)},
  };
  doc::Node& metadata = EnsureMapping(object, "metadata");
  for (std::string_view map : {"labels", "annotations"}) {
    doc::Node& entries = EnsureMapping(metadata, map);
    for (const auto& [key, value] : values) entries.Set(std::string(key), doc::Node::String(value));
    if (doc::At(spec, "coordinator") != nullptr) {
      entries.Set("jobset.sigs.k8s.io/coordinator", doc::Node::String(jobset_parts::CoordinatorEndpoint(jobset)));
    }
  }
  doc::Node& annotations = EnsureMapping(metadata, "annotations");
  for (const doc::Node* source : {doc::AtPath(&jobset, {"metadata", "annotations"}),
                                  doc::AtPath(&job, {"template", "metadata", "annotations"})}) {
    const doc::Node* topology = doc::At(source, kExclusiveKey);
    if (topology == nullptr) continue;
    annotations.Set(std::string(kExclusiveKey), *topology);
    if (const doc::Node* strategy = doc::At(source, kNodeSelectorStrategyKey)) {
      annotations.Set(std::string(kNodeSelectorStrategyKey), *strategy);
    }
  }
}

// addVolumes: a PVC volume for each claim template a container mounts.
void AddVolumes(doc::Node& pod_spec, const doc::Node& jobset) {
  const std::string jobset_name = doc::StringAtPath(jobset, {"metadata", "name"});
  for (const doc::Node& policy : doc::Items(doc::AtPath(&jobset, {"spec", "volumeClaimPolicies"}))) {
    for (const doc::Node& claim : doc::Items(doc::At(&policy, "templates"))) {
      const std::string name = doc::StringAtPath(claim, {"metadata", "name"});
      bool mounted = false;
      for (std::string_view list : {"containers", "initContainers"}) {
        for (const doc::Node& container : doc::Items(doc::At(&pod_spec, list))) {
          for (const doc::Node& mount : doc::Items(doc::At(&container, "volumeMounts"))) {
            mounted = mounted || doc::StringAt(&mount, "name") == name;
          }
        }
      }
      if (!mounted) continue;
      doc::Node volume = doc::Node::Mapping(claim.location());
      volume.Set("name", doc::Node::String(name));
      doc::Node source = doc::Node::Mapping();
      source.Set("claimName", doc::Node::String(name + "-" + jobset_name));  // GeneratePVCName
      volume.Set("persistentVolumeClaim", std::move(source));
      doc::Node* volumes = pod_spec.FindMutable("volumes");
      if (volumes == nullptr || !volumes->is_sequence()) volumes = &pod_spec.Set("volumes", doc::Node::Sequence());
      volumes->push_back(std::move(volume));
    }
  }
}

doc::Node ConstructJob(const doc::Node& jobset, const doc::Node& job, std::int64_t index,
                       const JobSetRules& rules) {
  const doc::Node* spec = doc::At(&jobset, "spec");
  const std::string jobset_name = doc::StringAtPath(jobset, {"metadata", "name"});
  doc::Node out = doc::Node::Mapping(job.location());
  out.Set("apiVersion", doc::Node::String("batch/v1"));
  out.Set("kind", doc::Node::String("Job"));
  doc::Node metadata = doc::Node::Mapping();
  metadata.Set("name", doc::Node::String(jobset_parts::JobName(jobset_name, doc::StringAt(&job, "name"), index)));
  metadata.Set("namespace", doc::Node::String(doc::StringAtPath(jobset, {"metadata", "namespace"})));
  for (std::string_view map : {"labels", "annotations"}) {
    if (const doc::Node* entries = doc::AtPath(&job, {"template", "metadata", map})) {
      metadata.Set(std::string(map), *entries);
    }
  }
  out.Set("metadata", std::move(metadata));
  const doc::Node* job_spec = jobset_parts::JobSpecOf(job);
  doc::Node& spec_out = out.Set("spec", job_spec != nullptr ? *job_spec : doc::Node::Mapping());
  LabelAndAnnotate(out, jobset, job, index);
  LabelAndAnnotate(EnsureMapping(spec_out, "template"), jobset, job, index);
  doc::Node& pod_spec = EnsureMapping(EnsureMapping(spec_out, "template"), "spec");
  const doc::Node* dns = doc::AtPath(spec, {"network", "enableDNSHostnames"});
  if (dns != nullptr && dns->is_bool() && dns->bool_value()) {
    pod_spec.Set("subdomain", doc::Node::String(jobset_parts::Subdomain(jobset)));
  }
  // The nodeSelector strategy of exclusive placement: the Job's own
  // annotations decide (both keys present).
  const doc::Node* annotations = doc::AtPath(&out, {"metadata", "annotations"});
  if (doc::At(annotations, kExclusiveKey) != nullptr && doc::At(annotations, kNodeSelectorStrategyKey) != nullptr) {
    const std::string space = doc::StringAtPath(jobset, {"metadata", "namespace"});
    const std::string name = doc::StringAtPath(out, {"metadata", "name"});
    // namespacedJobName: "<namespace>_<job name>".
    EnsureMapping(pod_spec, "nodeSelector").Set("alpha.jobset.sigs.k8s.io/namespaced-job",
                                            doc::Node::String(space + "_" + name));
    doc::Node toleration = doc::Node::Mapping();
    toleration.Set("key", doc::Node::String("alpha.jobset.sigs.k8s.io/no-schedule"));
    toleration.Set("operator", doc::Node::String("Exists"));
    toleration.Set("effect", doc::Node::String("NoSchedule"));
    doc::Node* tolerations = pod_spec.FindMutable("tolerations");
    if (tolerations == nullptr || !tolerations->is_sequence()) {
      tolerations = &pod_spec.Set("tolerations", doc::Node::Sequence());
    }
    tolerations->push_back(std::move(toleration));
  }
  const doc::Node* suspend = doc::At(spec, "suspend");
  spec_out.Set("suspend", doc::Node::Bool(suspend != nullptr && suspend->is_bool() && suspend->bool_value()));
  if (rules.volume_claim_policies && !doc::Items(doc::At(spec, "volumeClaimPolicies")).empty()) {
    AddVolumes(pod_spec, jobset);
  }
  return out;
}

}  // namespace

std::vector<doc::Node> FirstJobs(const doc::Node& jobset, const JobSetRules& rules) {
  std::vector<doc::Node> jobs;
  for (const doc::Node& job : doc::Items(doc::AtPath(&jobset, {"spec", "replicatedJobs"}))) {
    // A replicatedJob of 0 replicas creates no Job.
    if (IntAt(&job, "replicas", 0) < 1) continue;
    jobs.push_back(ConstructJob(jobset, job, 0, rules));
  }
  return jobs;
}

}  // namespace tjr::admission
