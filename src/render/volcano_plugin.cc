// Volcano (plugins/volcano/volcano.go at v2.1.0; spec §1.5.5).
#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
void EnforceVolcano(Info* info, const doc::Node& trainjob) {
  if (PodGroupPolicy(*info, "volcano") == nullptr) return;
  if (!info->pod_annotations.has_value()) info->pod_annotations.emplace();
  (*info->pod_annotations)["scheduling.k8s.io/group-name"] = doc::StringAtPath(trainjob, {"metadata", "name"});
}

doc::Node BuildVolcanoPodGroup(const Info& info, const doc::Node& trainjob) {
  const doc::Node* policy = PodGroupPolicy(info, "volcano");
  if (policy == nullptr) return {};
  std::int64_t members = 0;
  ResourceList resources;
  PodGroupTotals(info, &members, &resources);

  // volcano PodGroupSpec field order: minMember, minTaskMember, queue,
  // priorityClassName, minResources, networkTopology.
  doc::Node spec = doc::Node::Mapping();
  spec.Set("minMember", doc::Node::Int(members));
  if (auto queue = info.annotations.find("scheduling.volcano.sh/queue-name"); queue != info.annotations.end()) {
    spec.Set("queue", doc::Node::String(queue->second));
  }
  std::string priority_class;
  bool have_priority_class = false;
  if (const doc::Node* jobs = info.jobset_spec.Find("replicatedJobs")) {
    for (const doc::Node& job : jobs->items()) {
      const doc::Node* pc = doc::FindPath(job, {"template", "spec", "template", "spec", "priorityClassName"});
      if (pc != nullptr && pc->is_string()) {
        priority_class = pc->string_value();
        have_priority_class = true;
      }
    }
  }
  if (have_priority_class) spec.Set("priorityClassName", doc::Node::String(priority_class));
  spec.Set("minResources", ResourceListToJson(resources));
  if (const doc::Node* topology = policy->Find("networkTopology"); topology != nullptr && topology->is_mapping()) {
    doc::Node out = doc::Node::Mapping();
    const doc::Node* mode = topology->Find("mode");
    out.Set("mode", mode != nullptr && mode->is_string() ? *mode : doc::Node::String(""));
    if (const doc::Node* tier = topology->Find("highestTierAllowed"); tier != nullptr && tier->is_int()) {
      out.Set("highestTierAllowed", *tier);
    }
    spec.Set("networkTopology", std::move(out));
  }
  doc::Node pod_group =
      OwnedObject(trainjob, "scheduling.volcano.sh/v1beta1", "PodGroup", doc::StringAtPath(trainjob, {"metadata", "name"}));
  pod_group.Set("spec", std::move(spec));
  return pod_group;
}

}  // namespace tjr::render
