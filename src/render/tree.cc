#include "render/tree.h"

namespace tjr::render {

const doc::Node* Get(const doc::Node& root, std::initializer_list<std::string_view> path) {
  const doc::Node* at = &root;
  for (std::string_view key : path) {
    at = at->Find(key);
    if (at == nullptr) return nullptr;
  }
  return at;
}

std::string GetString(const doc::Node& root, std::initializer_list<std::string_view> path,
                      std::string_view fallback) {
  const doc::Node* value = Get(root, path);
  if (value == nullptr || !value->is_string()) return std::string(fallback);
  return value->string_value();
}

doc::Node& Child(doc::Node* node, std::string_view key) {
  if (!node->is_mapping()) *node = doc::Node::Mapping();
  doc::Node* found = node->FindMutable(key);
  if (found == nullptr) return node->Set(std::string(key), doc::Node::Mapping());
  if (!found->is_mapping()) *found = doc::Node::Mapping();
  return *found;
}

doc::Node& ChildPath(doc::Node* node, std::initializer_list<std::string_view> path) {
  doc::Node* at = node;
  for (std::string_view key : path) at = &Child(at, key);
  return *at;
}

bool IsEmptyCollection(const doc::Node* node) {
  return node == nullptr || node->is_null() || ((node->is_mapping() || node->is_sequence()) && node->empty());
}

}  // namespace tjr::render
