#include "explain/paths.h"

#include <algorithm>

#include "docdiff/field_diff.h"
#include "json/json.h"

namespace tjr::explain {
namespace {

bool IsPlainKey(std::string_view key) {
  return !key.empty() && key.find_first_of("./[]= ") == std::string_view::npos;
}

// How a key value reads in a path: strings as they are, numbers and bools
// as JSON ("containerPort=8080").
std::string KeyText(const doc::Node& value) {
  return value.is_string() ? value.string_value() : json::Write(value, false);
}

}  // namespace

std::string ChildPath(const std::string& parent, std::string_view key) {
  std::string path = parent;
  if (IsPlainKey(key)) {
    if (!path.empty()) path += '.';
    path += key;
  } else {
    path += '[';
    path += key;
    path += ']';
  }
  return path;
}

std::string ListKeyOf(const doc::Node& list) {
  if (!list.is_sequence() || list.empty()) return {};
  // `tjrender diff`'s rule for one list: a path explain prints is one diff prints.
  return docdiff::ListKey(list, doc::Node::Sequence()).value_or(std::string());
}

std::string ItemPath(const std::string& parent, const doc::Node& list, std::size_t index) {
  return ItemPath(parent, list, index, ListKeyOf(list));
}

std::string ItemPath(const std::string& parent, const doc::Node& list, std::size_t index,
                     std::string_view list_key) {
  std::string path = parent;
  path += '[';
  const doc::Node* value = list_key.empty() ? nullptr : list[index].Find(list_key);
  if (value != nullptr) {
    path += list_key;
    path += '=';
    path += KeyText(*value);
  } else {
    path += std::to_string(index);
  }
  path += ']';
  return path;
}

bool IsScalarList(const doc::Node& list) {
  return std::all_of(list.items().begin(), list.items().end(),
                     [](const doc::Node& item) { return item.is_scalar(); });
}

}  // namespace tjr::explain
