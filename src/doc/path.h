#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "doc/node.h"

// Reading a document tree by key: the one vocabulary every module uses.
// Each function takes a pointer that may be null and a node of any kind;
// none of them throws or creates anything.
//   At / AtPath      a null value (`key: ~`) counts as absent, as Go's
//                    decoding leaves a nil pointer, map or slice;
//   FindPath         a null value is returned as it is (a field that is
//                    present, for presence checks and locations);
//   StringAt(Path)   the string there, else "" (or the fallback);
//   Items            a sequence's items, else none.
namespace tjr::doc {

/// The value of mapping key `key` of `node`; nullptr when `node` is null or
/// not a mapping, or the key is absent or null.
inline const Node* At(const Node* node, std::string_view key) {
  if (node == nullptr) return nullptr;
  const Node* value = node->Find(key);
  return value != nullptr && !value->is_null() ? value : nullptr;
}

/// At, step by step along `path`.
const Node* AtPath(const Node* node, std::initializer_list<std::string_view> path);

/// The value at `path` (mapping keys) below `node`; nullptr when `node` is
/// null or a step is missing or not a mapping. A null value is returned.
const Node* FindPath(const Node* node, std::initializer_list<std::string_view> path);
inline const Node* FindPath(const Node& node, std::initializer_list<std::string_view> path) {
  return FindPath(&node, path);
}

/// The string at key `key` of `node`, or "" (absent, null, not a string).
std::string StringAt(const Node* node, std::string_view key);
inline std::string StringAt(const Node& node, std::string_view key) { return StringAt(&node, key); }

/// The string at `path` below `node`, or `fallback`.
std::string StringAtPath(const Node* node, std::initializer_list<std::string_view> path,
                         std::string_view fallback = {});
inline std::string StringAtPath(const Node& node, std::initializer_list<std::string_view> path,
                                std::string_view fallback = {}) {
  return StringAtPath(&node, path, fallback);
}

/// The items of `node` when it is a sequence; otherwise (null included) none.
const std::vector<Node>& Items(const Node* node);

}  // namespace tjr::doc
