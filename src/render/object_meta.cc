#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {

doc::Node ObjectMetaFor(const doc::Node& trainjob, std::string name) {
  doc::Node meta = doc::Node::Mapping();
  meta.Set("name", doc::Node::String(std::move(name)));
  if (const doc::Node* ns = doc::FindPath(trainjob, {"metadata", "namespace"}); ns != nullptr && ns->is_string()) {
    meta.Set("namespace", *ns);
  }
  return meta;
}

doc::Node OwnerReferences(const doc::Node& trainjob) {
  doc::Node ref = doc::Node::Mapping();
  ref.Set("apiVersion", doc::Node::String("trainer.kubeflow.org/v1alpha1"));
  ref.Set("kind", doc::Node::String("TrainJob"));
  ref.Set("name", doc::Node::String(doc::StringAtPath(trainjob, {"metadata", "name"})));
  if (const doc::Node* uid = doc::FindPath(trainjob, {"metadata", "uid"}); uid != nullptr && uid->is_string()) {
    ref.Set("uid", *uid);
  }
  ref.Set("controller", doc::Node::Bool(true));
  ref.Set("blockOwnerDeletion", doc::Node::Bool(true));
  doc::Node refs = doc::Node::Sequence();
  refs.push_back(std::move(ref));
  return refs;
}

doc::Node ObjectSkeleton(std::string_view api_version, std::string_view kind, doc::Node metadata) {
  doc::Node object = doc::Node::Mapping();
  object.Set("kind", doc::Node::String(std::string(kind)));
  object.Set("apiVersion", doc::Node::String(std::string(api_version)));
  object.Set("metadata", std::move(metadata));
  return object;
}

doc::Node OwnedObject(const doc::Node& trainjob, std::string_view api_version, std::string_view kind,
                      std::string name) {
  doc::Node meta = ObjectMetaFor(trainjob, std::move(name));
  meta.Set("ownerReferences", OwnerReferences(trainjob));
  return ObjectSkeleton(api_version, kind, std::move(meta));
}

const doc::Node* PodGroupPolicy(const Info& info, std::string_view name) {
  if (info.pod_group_policy.is_null()) return nullptr;
  const doc::Node* policy = info.pod_group_policy.Find(name);
  return policy != nullptr && !policy->is_null() ? policy : nullptr;
}

void PodGroupTotals(const Info& info, std::int64_t* members, ResourceList* resources) {
  *members = 0;
  resources->clear();
  for (const PodSet& ps : info.pod_sets) {
    *members += ps.count;
    for (const auto& [name, amount] : ps.single_pod_requests) {
      Amount scaled = amount;
      scaled.Mul(ps.count);
      (*resources)[name].Add(scaled);
    }
  }
}

doc::Node StringMapNode(const StringMap& map) {
  doc::Node out = doc::Node::Mapping();
  for (const auto& [k, v] : map) out.Set(k, doc::Node::String(v));
  return out;
}

}  // namespace tjr::render
