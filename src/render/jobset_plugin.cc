// JobSet plugin and builder (plugins/jobset/jobset.go, builder.go at
// v2.1.0; spec §1.5.6), with the v2.2.0/v2.3.0 changes (runtimepatches spec
// §5.3-§5.7): PodSet image/command written back, init containers synced and
// appended, parallelism matched by name, endpoints for every replica, and
// resourcesPerNode no longer set by the builder (merged earlier, v2.3.0).
#include <string>

#include "render/go_order.h"
#include "render/go_types.h"
#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {
namespace {

doc::Node& MutableJobs(doc::Node* spec) {
  doc::Node* jobs = spec->FindMutable("replicatedJobs");
  if (jobs == nullptr) return spec->Set("replicatedJobs", doc::Node::Sequence());
  return *jobs;
}

doc::Node* MutableContainers(doc::Node* job) {
  doc::Node& pod_spec = ChildPath(job, {"template", "spec", "template", "spec"});
  return pod_spec.FindMutable("containers");
}

std::string Ancestor(const doc::Node& job) {
  return doc::StringAtPath(job, {"template", "metadata", "labels", kAncestorLabel});
}

bool HasAncestorLabel(const doc::Node& job) {
  return doc::FindPath(job, {"template", "metadata", "labels", kAncestorLabel}) != nullptr;
}

// Builder.Initializer for one initializer kind.
void ApplyInitializer(doc::Node* job, std::string_view container_name, const doc::Node* section) {
  job->Set("replicas", doc::Node::Int(1));
  if (section == nullptr || section->is_null()) return;
  doc::Node* containers = MutableContainers(job);
  if (containers == nullptr) return;
  for (doc::Node& c : containers->mutable_items()) {
    if (doc::StringAtPath(c, {"name"}) != container_name) continue;
    doc::Node env = c.Find("env") != nullptr ? *c.Find("env") : doc::Node();
    if (const doc::Node* uri = section->Find("storageUri"); uri != nullptr && uri->is_string()) {
      doc::Node items = doc::Node::Sequence();
      items.push_back(EnvValue("STORAGE_URI", uri->string_value()));
      UpsertEnvVars(&env, items);
    }
    UpsertEnvVars(&env, ConvertEnvVars(section->Find("env")));
    if (!env.is_null()) c.Set("env", std::move(env));
    if (const doc::Node* secret = section->Find("secretRef"); secret != nullptr && secret->is_mapping()) {
      doc::Node ref = doc::Node::Mapping();
      ref.Set("name", doc::Node::String(doc::StringAtPath(*secret, {"name"})));
      doc::Node from = doc::Node::Mapping();
      from.Set("secretRef", std::move(ref));
      doc::Node* env_from = c.FindMutable("envFrom");
      if (env_from == nullptr || !env_from->is_sequence()) env_from = &c.Set("envFrom", doc::Node::Sequence());
      env_from->push_back(std::move(from));
    }
  }
}

// resourcesPerNode as ResourceRequirementsApplyConfiguration{limits?,
// requests?}: a present map (even empty) is kept, quantities canonical.
doc::Node ResourcesFromTrainJob(const doc::Node& rpn) {
  doc::Node out = doc::Node::Mapping();
  for (std::string_view key : {"limits", "requests"}) {
    const doc::Node* list = rpn.Find(key);
    if (list == nullptr || list->is_null()) continue;
    doc::Node typed_list = doc::Node::Mapping();
    for (const doc::Field& f : list->fields()) typed_list.Set(f.key, f.value);
    out.Set(std::string(key), std::move(typed_list));
  }
  return out;
}

void SetOrErase(doc::Node* container, std::string_view key, const doc::Node* value) {
  if (value == nullptr || value->is_null()) return;
  // An empty (non-nil) slice replaces the runtime's and is then omitted.
  if (value->is_sequence() && value->empty()) {
    container->Erase(key);
  } else {
    container->Set(std::string(key), *value);
  }
}

void ApplyTrainer(doc::Node* job, const Info& info, const doc::Node& trainjob) {
  const std::string ancestor = Ancestor(*job);
  const doc::Node* trainer = doc::FindPath(trainjob, {"spec", "trainer"});
  if (trainer != nullptr && trainer->is_null()) trainer = nullptr;
  if (ancestor == kAncestorTrainer) {
    job->Set("replicas", doc::Node::Int(1));
    if (doc::Node* containers = MutableContainers(job); containers != nullptr && trainer != nullptr) {
      for (doc::Node& c : containers->mutable_items()) {
        if (doc::StringAtPath(c, {"name"}) != kNode) continue;
        SetOrErase(&c, "image", trainer->Find("image"));
        SetOrErase(&c, "command", trainer->Find("command"));
        SetOrErase(&c, "args", trainer->Find("args"));
      }
    }
  }
  const doc::Node* mpi = info.ml_policy.is_null() ? nullptr : info.ml_policy.Find("mpi");
  const doc::Node* as_node = mpi != nullptr ? mpi->Find("runLauncherAsNode") : nullptr;
  const bool launcher_as_node = as_node != nullptr && as_node->is_bool() && as_node->bool_value();
  if (!(ancestor == kAncestorTrainer || (launcher_as_node && doc::StringAtPath(*job, {"name"}) == kNode))) return;
  if (trainer == nullptr) return;
  doc::Node* containers = MutableContainers(job);
  if (containers == nullptr) return;
  for (doc::Node& c : containers->mutable_items()) {
    if (doc::StringAtPath(c, {"name"}) != kNode) continue;
    const doc::Node* rpn = trainer::ReleaseOf(info.version).resources_per_node == trainer::ResourcesPerNode::kMergedPerKey
                                   ? nullptr
                                   : trainer->Find("resourcesPerNode");
    if (rpn != nullptr && rpn->is_mapping()) {
      const doc::Node* limits = rpn->Find("limits");
      const doc::Node* requests = rpn->Find("requests");
      if ((limits != nullptr && !limits->is_null()) || (requests != nullptr && !requests->is_null())) {
        c.Set("resources", ResourcesFromTrainJob(*rpn));
      }
    }
    doc::Node env = c.Find("env") != nullptr ? *c.Find("env") : doc::Node();
    UpsertEnvVars(&env, ConvertEnvVars(trainer->Find("env")));
    if (!env.is_null()) c.Set("env", std::move(env));
  }
}

// PodTemplateSpecApplyConfiguration.WithLabels / WithAnnotations: keys are
// merged into the existing map; nothing happens for an empty map.
void MergePodMetadata(doc::Node* job, std::string_view key, const StringMap& values) {
  if (values.empty()) return;
  doc::Node& metadata = ChildPath(job, {"template", "spec", "template", "metadata"});
  doc::Node& map = Child(&metadata, key);
  for (const auto& [k, v] : values) map.Set(k, doc::Node::String(v));
}

// One PodSet container written back into the JobSet container at the same
// index: command and image when non-empty (v2.2+), env, ports and
// volumeMounts upserted.
void SyncContainer(const Info& info, const PodSetContainer& from, doc::Node* container) {
  if (trainer::ReleaseOf(info.version).write_back_image_and_command) {
    if (!from.command.is_null() && !from.command.empty()) container->Set("command", from.command);
    if (!from.image.empty()) container->Set("image", doc::Node::String(from.image));
  }
  struct Sync {
    const char* key;
    const doc::Node& items;
    void (*upsert)(doc::Node*, const doc::Node&);
  };
  const Sync syncs[] = {{"env", from.env, UpsertEnvVars},
                        {"ports", from.ports, UpsertPorts},
                        {"volumeMounts", from.volume_mounts, UpsertVolumeMounts}};
  for (const Sync& sync : syncs) {
    doc::Node list = container->Find(sync.key) != nullptr ? *container->Find(sync.key) : doc::Node();
    sync.upsert(&list, sync.items);
    if (!list.is_null()) container->Set(sync.key, std::move(list));
  }
}

// SyncParallelCount (v2.3.0): each PodSet's count into the first replicated
// job of the same name.
void SyncParallelCount(const Info& info, doc::Node* jobs) {
  for (const PodSet& ps : info.pod_sets) {
    for (doc::Node& job : jobs->mutable_items()) {
      if (doc::StringAtPath(job, {"name"}) != ps.name || job.Find("name") == nullptr) continue;
      doc::Node& job_spec = ChildPath(&job, {"template", "spec"});
      job_spec.Set("parallelism", doc::Node::Int(ps.count));
      job_spec.Set("completions", doc::Node::Int(ps.count));
      break;
    }
  }
}

}  // namespace

void IdentifyPodNetwork(Info* info, const doc::Node& trainjob) {
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  const std::string subdomain = doc::StringAtPath(info->jobset_spec, {"network", "subdomain"}, name);
  const doc::Node* jobs = info->jobset_spec.Find("replicatedJobs");
  if (jobs == nullptr) return;
  for (std::size_t i = 0; i < jobs->size() && i < info->pod_sets.size(); ++i) {
    PodSet& ps = info->pod_sets[i];
    const std::string job_name = doc::StringAtPath((*jobs)[i], {"name"});
    // v2.3.0 (#3539): every replica of the job; before, replica 0 only.
    std::int64_t replicas = 1;
    if (const doc::Node* r = (*jobs)[i].Find("replicas"); trainer::ReleaseOf(info->version).endpoints_every_replica && r != nullptr &&
                                                          r->is_int()) {
      replicas = r->int_value();
    }
    ps.endpoints = Endpoints{name + "-" + job_name + "-", subdomain, replicas, ps.count};
  }
}

doc::Node BuildJobSet(const Info& info, const doc::Node& trainjob) {
  doc::Node spec = info.jobset_spec;
  doc::Node& jobs = MutableJobs(&spec);
  if (trainer::ReleaseOf(info.version).parallelism_by_job_name) SyncParallelCount(info, &jobs);
  for (std::size_t i = 0; i < info.pod_sets.size() && i < jobs.size(); ++i) {
    const PodSet& ps = info.pod_sets[i];
    doc::Node& job = jobs.mutable_items()[i];
    doc::Node& job_spec = ChildPath(&job, {"template", "spec"});
    if (!trainer::ReleaseOf(info.version).parallelism_by_job_name) {
      job_spec.Set("parallelism", doc::Node::Int(ps.count));
      job_spec.Set("completions", doc::Node::Int(ps.count));
    }
    doc::Node& pod_spec = ChildPath(&job_spec, {"template", "spec"});
    doc::Node volumes = pod_spec.Find("volumes") != nullptr ? *pod_spec.Find("volumes") : doc::Node();
    UpsertVolumes(&volumes, ps.volumes);
    if (!volumes.is_null()) pod_spec.Set("volumes", std::move(volumes));
    if (doc::Node* containers = pod_spec.FindMutable("containers")) {
      for (std::size_t c = 0; c < ps.containers.size() && c < containers->size(); ++c) {
        SyncContainer(info, ps.containers[c], &containers->mutable_items()[c]);
      }
    }
    if (!trainer::ReleaseOf(info.version).sync_init_containers || ps.init_containers.empty()) continue;
    doc::Node* init = pod_spec.FindMutable("initContainers");
    if (init == nullptr || !init->is_sequence()) init = &pod_spec.Set("initContainers", doc::Node::Sequence());
    for (std::size_t c = 0; c < ps.init_containers.size(); ++c) {
      if (c >= init->size()) {
        // Auto-append a slot for a container a plugin added to the PodSet.
        doc::Node slot = doc::Node::Mapping();
        slot.Set("name", doc::Node::String(ps.init_containers[c].name));
        init->push_back(std::move(slot));
      }
      SyncContainer(info, ps.init_containers[c], &init->mutable_items()[c]);
    }
  }

  for (doc::Node& job : jobs.mutable_items()) {
    if (!HasAncestorLabel(job)) continue;
    const std::string ancestor = Ancestor(job);
    if (ancestor == kDatasetInitializer) {
      ApplyInitializer(&job, kDatasetInitializer, doc::FindPath(trainjob, {"spec", "initializer", "dataset"}));
    }
    if (ancestor == kModelInitializer) {
      ApplyInitializer(&job, kModelInitializer, doc::FindPath(trainjob, {"spec", "initializer", "model"}));
    }
  }
  for (doc::Node& job : jobs.mutable_items()) ApplyTrainer(&job, info, trainjob);
  for (doc::Node& job : jobs.mutable_items()) MergePodMetadata(&job, "labels", info.pod_labels);
  if (info.pod_annotations.has_value()) {
    for (doc::Node& job : jobs.mutable_items()) MergePodMetadata(&job, "annotations", *info.pod_annotations);
  }
  if (const doc::Node* suspend = doc::FindPath(trainjob, {"spec", "suspend"}); suspend != nullptr && suspend->is_bool()) {
    spec.Set("suspend", *suspend);
  } else {
    spec.Erase("suspend");
  }

  Result<const GoTypes*> types = LoadGoTypes(info.version);
  if (types.ok()) spec = OrderAsGo(spec, *(*types)->job_set_spec);

  doc::Node meta = ObjectMetaFor(trainjob, doc::StringAtPath(trainjob, {"metadata", "name"}));
  if (!info.labels.empty()) meta.Set("labels", StringMapNode(info.labels));
  if (!info.annotations.empty()) meta.Set("annotations", StringMapNode(info.annotations));
  meta.Set("ownerReferences", OwnerReferences(trainjob));
  doc::Node jobset = ObjectSkeleton("jobset.x-k8s.io/v1alpha2", "JobSet", std::move(meta));
  jobset.Set("spec", std::move(spec));
  return jobset;
}

}  // namespace tjr::render
