#include "doc/objects.h"

namespace tjr::doc {
namespace {

std::string StringAt(const Node& object, std::string_view key) {
  const Node* value = object.Find(key);
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
}

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
    Status status = Flatten(document, &out);
    if (!status.ok()) return status.take_error();
  }
  return out;
}

}  // namespace tjr::doc
