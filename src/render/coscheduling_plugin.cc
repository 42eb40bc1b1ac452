// CoScheduling (plugins/coscheduling/coscheduling.go at v2.1.0; spec §1.5.4).
#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
void EnforceCoScheduling(Info* info, const doc::Node& trainjob) {
  if (PodGroupPolicy(*info, "coscheduling") == nullptr) return;
  info->pod_labels["scheduling.x-k8s.io/pod-group"] = doc::StringAtPath(trainjob, {"metadata", "name"});
}

doc::Node BuildCoSchedulingPodGroup(const Info& info, const doc::Node& trainjob) {
  const doc::Node* policy = PodGroupPolicy(info, "coscheduling");
  if (policy == nullptr) return {};
  std::int64_t members = 0;
  ResourceList resources;
  PodGroupTotals(info, &members, &resources);
  doc::Node spec = doc::Node::Mapping();
  spec.Set("minMember", doc::Node::Int(members));
  spec.Set("minResources", ResourceListToJson(resources));
  // Upstream dereferences the pointer (CRD default 60); absent would panic.
  const doc::Node* timeout = policy->Find("scheduleTimeoutSeconds");
  spec.Set("scheduleTimeoutSeconds", timeout != nullptr && timeout->is_int() ? *timeout : doc::Node::Int(60));
  doc::Node pod_group =
      OwnedObject(trainjob, "scheduling.x-k8s.io/v1alpha1", "PodGroup", doc::StringAtPath(trainjob, {"metadata", "name"}));
  pod_group.Set("spec", std::move(spec));
  return pod_group;
}

}  // namespace tjr::render
