#include "render/info.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>

#include "render/runtime_patches.h"
#include "render/pod_requests.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
namespace {

void OverlayStrings(const doc::Node* map, StringMap* out) {
  if (map == nullptr) return;
  for (const doc::Field& f : map->fields()) {
    if (f.value.is_string()) (*out)[f.key] = f.value.string_value();
  }
}

doc::Node SequenceOrEmpty(const doc::Node* value) {
  return value != nullptr && value->is_sequence() ? *value : doc::Node::Sequence();
}

// toPodSetContainer: image and command are copied from v2.3.0 on (v2.2.0
// has the fields, filled only by plugins).
std::vector<PodSetContainer> PodSetContainers(const doc::Node* containers, trainer::TrainerVersion version) {
  std::vector<PodSetContainer> out;
  if (containers == nullptr) return out;
  for (const doc::Node& c : containers->items()) {
    const doc::Node* command = c.Find("command");
    const bool v23 = trainer::ReleaseOf(version).podset_image_and_command;
    out.push_back({doc::StringAtPath(c, {"name"}), v23 ? doc::StringAtPath(c, {"image"}) : std::string(),
                   v23 && command != nullptr && command->is_sequence() ? *command : doc::Node(),
                   SequenceOrEmpty(c.Find("env")), SequenceOrEmpty(c.Find("ports")),
                   SequenceOrEmpty(c.Find("volumeMounts"))});
  }
  return out;
}

bool HasNull(const doc::Node& node) {
  if (node.is_mapping()) {
    for (const doc::Field& f : node.fields()) {
      if (f.value.is_null() || HasNull(f.value)) return true;
    }
  } else if (node.is_sequence()) {
    for (const doc::Node& item : node.items()) {
      if (item.is_null() || HasNull(item)) return true;
    }
  }
  return false;
}

// The `node` container of a pod spec, or nullptr.
doc::Node* NodeContainer(doc::Node* pod_spec) {
  doc::Node* containers = pod_spec->FindMutable("containers");
  if (containers == nullptr || !containers->is_sequence()) return nullptr;
  for (doc::Node& c : containers->mutable_items()) {
    if (doc::StringAtPath(c, {"name"}) == kNode) return &c;
  }
  return nullptr;
}

// MergeResourceRequirements (pkg/util/trainingruntime, v2.3.0) of the
// container's limits/requests with resourcesPerNode: per resource name,
// resourcesPerNode wins; an empty result map is nil. Claims of neither side
// reach the apply configuration (only limits and requests are copied back).
doc::Node MergedResources(const doc::Node* base, const doc::Node& rpn) {
  doc::Node out = doc::Node::Mapping();
  for (std::string_view key : {"limits", "requests"}) {
    std::map<std::string, doc::Node> merged;
    for (const doc::Node* side : {base != nullptr ? base->Find(key) : nullptr, rpn.Find(key)}) {
      if (side == nullptr || !side->is_mapping()) continue;
      for (const doc::Field& f : side->fields()) merged[f.key] = f.value;
    }
    if (merged.empty()) continue;
    doc::Node list = doc::Node::Mapping();
    for (auto& [name, quantity] : merged) list.Set(name, std::move(quantity));
    out.Set(std::string(key), std::move(list));
  }
  return out;
}

// What resourcesPerNode does to replicated job `job` before PodSets are
// built: nothing in v2.1.0 (the builder sets it later); in v2.2.0 the typed
// pod spec behind the PodSet's requests gets it wholesale (trainer job with
// an mlPolicy); in v2.3.0 it is merged into the runtime's resources, in the
// apply configuration too, for the trainer job with an mlPolicy or the job
// `node` under MPI runLauncherAsNode (runtimepatches spec §5.3).
// Returns the pod spec the PodSet's requests are computed from.
doc::Node ApplyResourcesPerNode(const Info& info, const doc::Node& trainjob, const std::optional<std::string>& ancestor,
                                doc::Node* job) {
  doc::Node* pod_spec_in_job = nullptr;
  if (doc::Node* t = job->FindMutable("template"); t != nullptr) {
    if (doc::Node* sp = t->FindMutable("spec"); sp != nullptr) {
      if (doc::Node* pt = sp->FindMutable("template"); pt != nullptr) pod_spec_in_job = pt->FindMutable("spec");
    }
  }
  doc::Node typed_spec = pod_spec_in_job != nullptr ? *pod_spec_in_job : doc::Node::Mapping();
  const doc::Node* rpn = doc::FindPath(trainjob, {"spec", "trainer", "resourcesPerNode"});
  if (rpn == nullptr || !rpn->is_mapping() || trainer::ReleaseOf(info.version).resources_per_node == trainer::ResourcesPerNode::kJobSetPluginReplaces) {
    return typed_spec;
  }
  const bool has_ml = !info.ml_policy.is_null();
  const bool trainer = ancestor.has_value() && *ancestor == kAncestorTrainer && has_ml;
  if (trainer::ReleaseOf(info.version).resources_per_node == trainer::ResourcesPerNode::kPodSetAndJobSetPluginReplace) {
    if (!trainer) return typed_spec;
    if (doc::Node* c = NodeContainer(&typed_spec)) {
      doc::Node resources = doc::Node::Mapping();
      for (std::string_view key : {"limits", "requests", "claims"}) {
        if (const doc::Node* v = rpn->Find(key); v != nullptr && !IsEmptyCollection(v)) resources.Set(std::string(key), *v);
      }
      c->Set("resources", std::move(resources));
    }
    return typed_spec;
  }
  const doc::Node* as_node = doc::FindPath(info.ml_policy, {"mpi", "runLauncherAsNode"});
  const bool launcher_as_node = has_ml && as_node != nullptr && as_node->is_bool() && as_node->bool_value() &&
                                doc::StringAtPath(*job, {"name"}) == kNode;
  if ((!trainer && !launcher_as_node) || pod_spec_in_job == nullptr) return typed_spec;
  doc::Node* c = NodeContainer(pod_spec_in_job);
  if (c == nullptr) return typed_spec;
  c->Set("resources", MergedResources(c->Find("resources"), *rpn));
  return *pod_spec_in_job;
}

}  // namespace

doc::Node DropNulls(const doc::Node& node) {
  if (!HasNull(node)) return node;
  if (node.is_mapping()) {
    doc::Node out = doc::Node::Mapping(node.location());
    for (const doc::Field& f : node.fields()) {
      if (!f.value.is_null()) out.Set(f.key, DropNulls(f.value), f.key_location);
    }
    return out;
  }
  doc::Node out = doc::Node::Sequence(node.location());
  for (const doc::Node& item : node.items()) {
    // A null list element decodes to a zero struct; keep its position.
    out.push_back(item.is_null() ? doc::Node::Mapping(item.location()) : DropNulls(item));
  }
  return out;
}

PodSet* Info::FindPodSetByAncestor(std::string_view ancestor) {
  for (PodSet& ps : pod_sets) {
    if (ps.ancestor.has_value() && *ps.ancestor == ancestor) return &ps;
  }
  return nullptr;
}

PodSet* Info::FindPodSetByName(std::string_view name) {
  for (PodSet& ps : pod_sets) {
    if (ps.name == name) return &ps;
  }
  return nullptr;
}

PodSetContainer* Info::FindContainer(std::string_view ancestor, std::string_view name) {
  PodSet* ps = FindPodSetByAncestor(ancestor);
  if (ps == nullptr) return nullptr;
  for (PodSetContainer& c : ps->containers) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

Result<Info> BuildInfo(const doc::Node& trainjob, const doc::Node& runtime,
                       const doc::Node* merged_jobset_spec, trainer::TrainerVersion version) {
  Info info;
  info.version = version;
  const doc::Node* runtime_spec = runtime.Find("spec");
  const doc::Node empty;
  const doc::Node& rs = runtime_spec != nullptr ? *runtime_spec : empty;

  OverlayStrings(doc::FindPath(rs, {"template", "metadata", "labels"}), &info.labels);
  OverlayStrings(doc::FindPath(rs, {"template", "metadata", "annotations"}), &info.annotations);
  if (trainer::ReleaseOf(version).runtime_patches) {
    // JobSet-level patch metadata, entries in list order, later keys win;
    // other ObjectMeta keys are not read (trainingruntime.go:152-169).
    if (const doc::Node* patches = doc::FindPath(trainjob, {"spec", "runtimePatches"})) {
      for (const doc::Node& entry : patches->items()) {
        OverlayStrings(doc::FindPath(entry, {"trainingRuntimeSpec", "template", "metadata", "labels"}), &info.labels);
        OverlayStrings(doc::FindPath(entry, {"trainingRuntimeSpec", "template", "metadata", "annotations"}),
                       &info.annotations);
      }
    }
  } else {
    OverlayStrings(doc::FindPath(trainjob, {"spec", "labels"}), &info.labels);
    OverlayStrings(doc::FindPath(trainjob, {"spec", "annotations"}), &info.annotations);
  }
  if (const doc::Node* ml = rs.Find("mlPolicy"); ml != nullptr && ml->is_mapping()) info.ml_policy = *ml;
  if (const doc::Node* pg = rs.Find("podGroupPolicy"); pg != nullptr && pg->is_mapping()) {
    info.pod_group_policy = *pg;
  }

  const doc::Node* template_spec = doc::FindPath(rs, {"template", "spec"});
  Result<doc::Node> merged =
      merged_jobset_spec != nullptr
          ? Result<doc::Node>(*merged_jobset_spec)
          : MergeJobSetTemplate(trainjob, template_spec != nullptr ? *template_spec : empty, version);
  if (!merged.ok()) return merged.take_error();
  // The merge comes back typed (see MergeJobSetTemplate).
  info.jobset_spec = DropNulls(*merged);

  if (doc::Node* jobs = info.jobset_spec.FindMutable("replicatedJobs")) {
    for (doc::Node& job : jobs->mutable_items()) {
      PodSet ps;
      ps.name = doc::StringAtPath(job, {"name"});
      const doc::Node* parallelism = doc::FindPath(job, {"template", "spec", "parallelism"});
      std::int64_t count = parallelism != nullptr && parallelism->is_int() ? parallelism->int_value() : 1;
      if (const doc::Node* ancestor = doc::FindPath(job, {"template", "metadata", "labels", kAncestorLabel});
          ancestor != nullptr && ancestor->is_string()) {
        ps.ancestor = ancestor->string_value();
        if (*ps.ancestor == kAncestorTrainer && !info.ml_policy.is_null()) {
          const doc::Node* num_nodes = info.ml_policy.Find("numNodes");
          count = num_nodes != nullptr && num_nodes->is_int() ? num_nodes->int_value() : 1;
        }
      }
      ps.count = static_cast<std::int32_t>(std::max<std::int64_t>(count, 1));
      const doc::Node typed_pod_spec = ApplyResourcesPerNode(info, trainjob, ps.ancestor, &job);
      const doc::Node* pod_spec = doc::FindPath(job, {"template", "spec", "template", "spec"});
      const doc::Node& spec = pod_spec != nullptr ? *pod_spec : empty;
      ps.volumes = SequenceOrEmpty(spec.Find("volumes"));
      ps.init_containers = PodSetContainers(spec.Find("initContainers"), version);
      ps.containers = PodSetContainers(spec.Find("containers"), version);
      Result<ResourceList> requests = PodRequests(typed_pod_spec);
      if (!requests.ok()) return requests.take_error();
      ps.single_pod_requests = *std::move(requests);
      info.pod_sets.push_back(std::move(ps));
    }
  }
  return info;
}

Result<NodeResources> TrainerResources(const Info& info, const doc::Node& trainjob) {
  NodeResources out;
  const doc::Node* source = nullptr;
  if (const doc::Node* rpn = doc::FindPath(trainjob, {"spec", "trainer", "resourcesPerNode"}); rpn != nullptr && !rpn->is_null()) {
    source = rpn;
  } else if (const doc::Node* jobs = info.jobset_spec.Find("replicatedJobs")) {
    for (const doc::Node& job : jobs->items()) {
      if (source != nullptr) break;
      const bool named_node = doc::StringAtPath(job, {"name"}) == kNode;
      const bool trainer = doc::StringAtPath(job, {"template", "metadata", "labels", kAncestorLabel}) == kAncestorTrainer;
      if (!named_node && !trainer) continue;
      const doc::Node* containers = doc::FindPath(job, {"template", "spec", "template", "spec", "containers"});
      if (containers == nullptr) continue;
      for (const doc::Node& c : containers->items()) {
        const doc::Node* resources = c.Find("resources");
        if (doc::StringAtPath(c, {"name"}) == kNode && resources != nullptr) {
          source = resources;
          break;
        }
      }
    }
  }
  if (source == nullptr) return out;
  Result<ResourceList> requests = ResourceListFromJson(source->Find("requests"));
  if (!requests.ok()) return requests.take_error();
  Result<ResourceList> limits = ResourceListFromJson(source->Find("limits"));
  if (!limits.ok()) return limits.take_error();
  out.requests = *std::move(requests);
  out.limits = *std::move(limits);
  return out;
}

namespace {

std::int64_t FirstGpu(const ResourceList& list) {
  for (const auto& [name, amount] : list) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.find("gpu") != std::string::npos) return amount.Value();
  }
  return 0;
}

}  // namespace

std::int64_t GpuCount(const NodeResources& resources) {
  std::int64_t gpu = FirstGpu(resources.requests);
  if (std::int64_t limit = FirstGpu(resources.limits); gpu == 0 && limit > 0) gpu = limit;
  return gpu;
}

std::int64_t Endpoints::size() const {
  if (replicas <= 0 || pods <= 0) return 0;
  if (replicas > std::numeric_limits<std::int64_t>::max() / pods) return std::numeric_limits<std::int64_t>::max();
  return replicas * pods;
}

std::string Endpoints::At(std::int64_t index) const {
  return prefix + std::to_string(index / pods) + "-" + std::to_string(index % pods) + "." + subdomain;
}

}  // namespace tjr::render
