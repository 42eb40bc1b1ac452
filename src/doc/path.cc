#include "doc/path.h"

namespace tjr::doc {

const Node* AtPath(const Node* node, std::initializer_list<std::string_view> path) {
  for (std::string_view key : path) node = At(node, key);
  return node;
}

const Node* FindPath(const Node* node, std::initializer_list<std::string_view> path) {
  for (std::string_view key : path) {
    if (node == nullptr) return nullptr;
    node = node->Find(key);
  }
  return node;
}

std::string StringAt(const Node* node, std::string_view key) {
  const Node* value = node != nullptr ? node->Find(key) : nullptr;
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
}

std::string StringAtPath(const Node* node, std::initializer_list<std::string_view> path, std::string_view fallback) {
  const Node* value = FindPath(node, path);
  return value != nullptr && value->is_string() ? value->string_value() : std::string(fallback);
}

const std::vector<Node>& Items(const Node* node) {
  static const std::vector<Node> kNone;
  return node != nullptr && node->is_sequence() ? node->items() : kNone;
}

}  // namespace tjr::doc
