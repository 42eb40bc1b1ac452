#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "doc/node.h"

// The few edits and reads defaulting and validation make on Go pointer
// fields of a doc tree, written once for the admission module.
namespace tjr::admission {

/// The mapping at `key` of `parent`, made (empty) when absent, null or not a
/// mapping: a Go pointer to a struct that the code assigns.
inline doc::Node& EnsureMapping(doc::Node& parent, std::string_view key) {
  doc::Node* child = parent.FindMutable(key);
  if (child != nullptr && child->is_mapping()) return *child;
  return parent.Set(std::string(key), doc::Node::Mapping());
}

/// A *int32 / *bool / *string field: set to `value` only when nil.
inline void SetIfUnset(doc::Node& object, std::string_view key, doc::Node value) {
  const doc::Node* current = object.Find(key);
  if (current != nullptr && !current->is_null()) return;
  object.Set(std::string(key), std::move(value));
}

/// The value at `key`, else `node` itself: the node a finding about that
/// field is located at when the field is absent.
inline const doc::Node* ValueOrParent(const doc::Node& node, std::string_view key) {
  const doc::Node* value = node.Find(key);
  return value != nullptr ? value : &node;
}

}  // namespace tjr::admission
