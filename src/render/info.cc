#include "render/info.h"

#include <algorithm>
#include <cctype>

#include "render/go_types.h"
#include "render/runtime_patches.h"
#include "render/pod_requests.h"
#include "render/tree.h"
#include "typed/round_trip.h"

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

std::vector<PodSetContainer> PodSetContainers(const doc::Node* containers) {
  std::vector<PodSetContainer> out;
  if (containers == nullptr) return out;
  for (const doc::Node& c : containers->items()) {
    out.push_back({GetString(c, {"name"}), SequenceOrEmpty(c.Find("env")), SequenceOrEmpty(c.Find("ports")),
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
                       const doc::Node* merged_jobset_spec, TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  Info info;
  info.version = version;
  const doc::Node* runtime_spec = runtime.Find("spec");
  const doc::Node empty;
  const doc::Node& rs = runtime_spec != nullptr ? *runtime_spec : empty;

  OverlayStrings(Get(rs, {"template", "metadata", "labels"}), &info.labels);
  OverlayStrings(Get(rs, {"template", "metadata", "annotations"}), &info.annotations);
  if (HasRuntimePatches(version)) {
    // JobSet-level patch metadata, entries in list order, later keys win;
    // other ObjectMeta keys are not read (trainingruntime.go:152-169).
    if (const doc::Node* patches = Get(trainjob, {"spec", "runtimePatches"})) {
      for (const doc::Node& entry : patches->items()) {
        OverlayStrings(Get(entry, {"trainingRuntimeSpec", "template", "metadata", "labels"}), &info.labels);
        OverlayStrings(Get(entry, {"trainingRuntimeSpec", "template", "metadata", "annotations"}),
                       &info.annotations);
      }
    }
  } else {
    OverlayStrings(Get(trainjob, {"spec", "labels"}), &info.labels);
    OverlayStrings(Get(trainjob, {"spec", "annotations"}), &info.annotations);
  }
  if (const doc::Node* ml = rs.Find("mlPolicy"); ml != nullptr && ml->is_mapping()) info.ml_policy = *ml;
  if (const doc::Node* pg = rs.Find("podGroupPolicy"); pg != nullptr && pg->is_mapping()) {
    info.pod_group_policy = *pg;
  }

  const doc::Node* template_spec = Get(rs, {"template", "spec"});
  Result<doc::Node> merged =
      merged_jobset_spec != nullptr
          ? Result<doc::Node>(*merged_jobset_spec)
          : MergeJobSetTemplate(trainjob, template_spec != nullptr ? *template_spec : empty, version);
  if (!merged.ok()) return merged.take_error();
  Result<doc::Node> typed_spec = typed::TypedRoundTrip(*merged, *(*types)->job_set_spec);
  if (!typed_spec.ok()) return typed_spec.take_error();
  info.jobset_spec = DropNulls(*typed_spec);

  if (const doc::Node* jobs = info.jobset_spec.Find("replicatedJobs")) {
    for (const doc::Node& job : jobs->items()) {
      PodSet ps;
      ps.name = GetString(job, {"name"});
      const doc::Node* parallelism = Get(job, {"template", "spec", "parallelism"});
      std::int64_t count = parallelism != nullptr && parallelism->is_int() ? parallelism->int_value() : 1;
      if (const doc::Node* ancestor = Get(job, {"template", "metadata", "labels", kAncestorLabel});
          ancestor != nullptr && ancestor->is_string()) {
        ps.ancestor = ancestor->string_value();
        if (*ps.ancestor == kAncestorTrainer && !info.ml_policy.is_null()) {
          const doc::Node* num_nodes = info.ml_policy.Find("numNodes");
          count = num_nodes != nullptr && num_nodes->is_int() ? num_nodes->int_value() : 1;
        }
      }
      ps.count = static_cast<std::int32_t>(std::max<std::int64_t>(count, 1));
      const doc::Node* pod_spec = Get(job, {"template", "spec", "template", "spec"});
      const doc::Node& spec = pod_spec != nullptr ? *pod_spec : empty;
      ps.volumes = SequenceOrEmpty(spec.Find("volumes"));
      ps.init_containers = PodSetContainers(spec.Find("initContainers"));
      ps.containers = PodSetContainers(spec.Find("containers"));
      Result<ResourceList> requests = PodRequests(spec);
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
  if (const doc::Node* rpn = Get(trainjob, {"spec", "trainer", "resourcesPerNode"}); rpn != nullptr && !rpn->is_null()) {
    source = rpn;
  } else if (const doc::Node* jobs = info.jobset_spec.Find("replicatedJobs")) {
    for (const doc::Node& job : jobs->items()) {
      if (source != nullptr) break;
      const bool named_node = GetString(job, {"name"}) == kNode;
      const bool trainer = GetString(job, {"template", "metadata", "labels", kAncestorLabel}) == kAncestorTrainer;
      if (!named_node && !trainer) continue;
      const doc::Node* containers = Get(job, {"template", "spec", "template", "spec", "containers"});
      if (containers == nullptr) continue;
      for (const doc::Node& c : containers->items()) {
        const doc::Node* resources = c.Find("resources");
        if (GetString(c, {"name"}) == kNode && resources != nullptr) {
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

}  // namespace tjr::render
