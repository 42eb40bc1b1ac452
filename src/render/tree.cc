#include "render/tree.h"

namespace tjr::render {

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
