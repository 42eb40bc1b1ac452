#include "doc/objects.h"

#include "doc/path.h"

namespace tjr::doc {
namespace {

Status Flatten(const Node& document, std::vector<Node>* out) {
  if (!document.is_mapping()) {
    return MakeError(document.location(), "",
                     "expected an object (a YAML mapping), found " +
                         std::string(KindName(document.kind())));
  }
  const Node* items = document.Find("items");
  if (items == nullptr || !items->is_sequence()) {
    out->push_back(document);
    return Ok();
  }
  for (const Node& item : items->items()) {
    Status status = Flatten(item, out);
    if (!status.ok()) return status;
  }
  return Ok();
}

// decodeToList (apimachinery v0.32.4 pkg/apis/meta/v1/unstructured/
// helpers.go:454-482): an item of a list document with neither a kind nor
// an apiVersion (a non-string one reads as none) gets the list's kind
// without its "List" suffix and the list's apiVersion, as a PodList's items
// written by the API server lack them. Upstream also does it for `kind:
// List`, setting the kind to ""; such an item stays as it is here, which is
// refused for its missing kind the same way.
Node WithKindFromList(const Node& list) {
  const std::string list_kind = StringAt(list, "kind");
  if (list_kind.size() <= 4 || !list_kind.ends_with("List")) return list;
  const std::string item_kind = list_kind.substr(0, list_kind.size() - 4);
  const std::string api_version = StringAt(list, "apiVersion");
  Node out = list;
  Node* items = out.FindMutable("items");
  for (Node& item : items->mutable_items()) {
    if (!item.is_mapping() || !StringAt(item, "kind").empty() || !StringAt(item, "apiVersion").empty()) continue;
    item.Set("kind", Node::String(item_kind, item.location()));
    item.Set("apiVersion", Node::String(api_version, item.location()));
  }
  return out;
}

}  // namespace

ObjectId ObjectId::Of(const Node& object) {
  ObjectId id;
  id.api_version = StringAt(object, "apiVersion");
  id.kind = StringAt(object, "kind");
  if (const Node* metadata = object.Find("metadata")) {
    id.namespace_ = StringAt(*metadata, "namespace");
    id.name = StringAt(*metadata, "name");
  }
  return id;
}

std::string ObjectId::ToString() const {
  std::string out = api_version + "/" + kind + " ";
  if (!namespace_.empty()) out += namespace_ + "/";
  return out + name;
}

Result<std::vector<Node>> FlattenLists(const std::vector<Node>& documents) {
  std::vector<Node> out;
  for (const Node& document : documents) {
    const Node* items = document.is_mapping() ? document.Find("items") : nullptr;
    Status status = Flatten(items != nullptr && items->is_sequence() ? WithKindFromList(document) : document, &out);
    if (!status.ok()) return status.take_error();
  }
  return out;
}

}  // namespace tjr::doc
