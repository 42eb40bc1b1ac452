#include "render/pod_requests.h"

#include <string_view>

#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
namespace {

// addResourceList: a new name takes a copy (format included), an existing
// one is added to.
void AddList(ResourceList* list, const ResourceList& add) {
  for (const auto& [name, amount] : add) {
    auto it = list->find(name);
    if (it == list->end()) {
      list->emplace(name, amount);
    } else {
      it->second.Add(amount);
    }
  }
}

// maxResourceList: a new name or a larger value replaces.
void MaxList(ResourceList* list, const ResourceList& other) {
  for (const auto& [name, amount] : other) {
    auto it = list->find(name);
    if (it == list->end()) {
      list->emplace(name, amount);
    } else if (amount.Cmp(it->second) > 0) {
      it->second = amount;
    }
  }
}

bool IsSupportedPodLevel(std::string_view name) { return name == "cpu" || name == "memory"; }

}  // namespace

Result<ResourceList> PodRequests(const doc::Node& pod_spec) {
  ResourceList requests;
  if (const doc::Node* containers = pod_spec.Find("containers")) {
    for (const doc::Node& container : containers->items()) {
      Result<ResourceList> r = ResourceListFromJson(doc::FindPath(container, {"resources", "requests"}));
      if (!r.ok()) return r;
      AddList(&requests, *r);
    }
  }
  ResourceList restartable;
  ResourceList init;
  if (const doc::Node* containers = pod_spec.Find("initContainers")) {
    for (const doc::Node& container : containers->items()) {
      Result<ResourceList> r = ResourceListFromJson(doc::FindPath(container, {"resources", "requests"}));
      if (!r.ok()) return r;
      ResourceList effective;
      if (doc::StringAtPath(container, {"restartPolicy"}) == "Always") {
        AddList(&requests, *r);
        AddList(&restartable, *r);
        effective = restartable;
      } else {
        AddList(&effective, *r);
        AddList(&effective, restartable);
      }
      MaxList(&init, effective);
    }
  }
  MaxList(&requests, init);

  const doc::Node* pod_level = doc::FindPath(pod_spec, {"resources"});
  bool pod_level_set = false;
  if (pod_level != nullptr && pod_level->is_mapping()) {
    const doc::Node* req = pod_level->Find("requests");
    if (req != nullptr && !req->empty()) pod_level_set = true;
    if (const doc::Node* lim = pod_level->Find("limits")) {
      for (const doc::Field& f : lim->fields()) pod_level_set = pod_level_set || IsSupportedPodLevel(f.key);
    }
    if (pod_level_set) {
      Result<ResourceList> r = ResourceListFromJson(req);
      if (!r.ok()) return r;
      for (const auto& [name, amount] : *r) {
        if (IsSupportedPodLevel(name)) requests[name] = amount;
      }
    }
  }
  if (const doc::Node* overhead = pod_spec.Find("overhead"); overhead != nullptr && overhead->is_mapping()) {
    Result<ResourceList> r = ResourceListFromJson(overhead);
    if (!r.ok()) return r;
    AddList(&requests, *r);
  }
  return requests;
}

}  // namespace tjr::render
