#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "doc/node.h"
#include "doc/path.h"
#include "flyte/config.h"

// Small helpers on Go-form pod specs shared by the composition files (over
// doc/path.h; Items here copies, for lists the caller edits).
namespace tjr::flyte {

inline std::string NameOf(const doc::Node& container) { return doc::StringAt(container, "name"); }

inline bool IsNil(const doc::Node* value) { return value == nullptr || value->is_null(); }

inline std::vector<doc::Node> Items(const doc::Node& object, std::string_view key) {
  const doc::Node* list = object.Find(key);
  if (list == nullptr || !list->is_sequence()) return {};
  return list->items();
}

inline doc::Node Sequence(const std::vector<doc::Node>& items) {
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& item : items) out.push_back(item);
  return out;
}

inline doc::Node MapNode(const StringMap& map) {
  doc::Node out = doc::Node::Mapping();
  for (const auto& [k, v] : map) out.Set(k, doc::Node::String(v));
  return out;
}

inline StringMap MapOf(const doc::Node* node) {
  StringMap out;
  if (node == nullptr) return out;
  for (const doc::Field& f : node->fields()) {
    if (f.value.is_string()) out[f.key] = f.value.string_value();
  }
  return out;
}

// utils.UnionMaps: later maps win.
inline StringMap Union(std::initializer_list<const StringMap*> maps) {
  StringMap out;
  for (const StringMap* m : maps) {
    for (const auto& [k, v] : *m) out[k] = v;
  }
  return out;
}

}  // namespace tjr::flyte
