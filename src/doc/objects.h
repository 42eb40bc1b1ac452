#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::doc {

/// apiVersion/kind/namespace/name of a Kubernetes object.
struct ObjectId {
  std::string api_version;
  std::string kind;
  std::string namespace_;
  std::string name;

  static ObjectId Of(const Node& object);
  /// "apiVersion/kind namespace/name" (namespace part left out when empty).
  std::string ToString() const;
  friend bool operator==(const ObjectId&, const ObjectId&) = default;
  friend auto operator<=>(const ObjectId&, const ObjectId&) = default;
};

/// Replaces every list object (one whose `items` is a sequence, as
/// apimachinery's Unstructured.IsList decides; `kind: List` is the usual
/// case) by its items, recursively, keeping stream order. Documents that
/// are not mappings are an error. The items of a list document that have
/// neither kind nor apiVersion get them from the list as kubectl's decoder
/// gives them (a PodList's items become v1 Pods).
Result<std::vector<Node>> FlattenLists(const std::vector<Node>& documents);

}  // namespace tjr::doc
