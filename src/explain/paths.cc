#include "explain/paths.h"

#include <algorithm>
#include <array>
#include <vector>

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
  static constexpr std::array<const char*, 4> kCandidates = {"name", "mountPath", "containerPort",
                                                             "key"};
  if (!list.is_sequence() || list.empty()) return {};
  for (const char* candidate : kCandidates) {
    bool usable = true;
    // Distinct as docdiff's ListKey compares them: by JSON text, so the
    // string "80" and the number 80 are two keys.
    std::vector<std::string> seen;
    for (const doc::Node& item : list.items()) {
      const doc::Node* value = item.is_mapping() ? item.Find(candidate) : nullptr;
      if (value == nullptr || !value->is_scalar() || value->is_null()) {
        usable = false;
        break;
      }
      std::string text = json::Write(*value, false);
      if (std::find(seen.begin(), seen.end(), text) != seen.end()) {
        usable = false;
        break;
      }
      seen.push_back(std::move(text));
    }
    if (usable) return candidate;
  }
  return {};
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
