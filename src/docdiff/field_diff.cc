#include "docdiff/field_diff.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <utility>

#include "json/json.h"

namespace tjr::docdiff {
namespace {

std::string KeyText(const doc::Node& value) {
  return value.is_string() ? value.string_value() : json::Write(value, false);
}

bool AllScalars(const doc::Node& list) {
  return std::all_of(list.items().begin(), list.items().end(),
                     [](const doc::Node& item) { return item.is_scalar(); });
}

class Differ {
 public:
  std::vector<FieldDifference> out;

  void Compare(const FieldPath& path, const doc::Node& before, const doc::Node& after) {
    if (before == after) return;
    if (before.is_mapping() && after.is_mapping()) return CompareMappings(path, before, after);
    if (before.is_sequence() && after.is_sequence() && !(AllScalars(before) && AllScalars(after))) {
      if (auto key = ListKey(before, after)) return CompareKeyed(path, *key, before, after);
      return CompareIndexed(path, before, after);
    }
    out.push_back({FieldChangeType::kChanged, path, before, after});
  }

 private:
  void CompareMappings(const FieldPath& path, const doc::Node& before, const doc::Node& after) {
    for (const doc::Field& field : before.fields()) {
      const doc::Node* other = after.Find(field.key);
      if (other == nullptr) {
        out.push_back({FieldChangeType::kRemoved, path.Field(field.key), field.value, {}});
      } else {
        Compare(path.Field(field.key), field.value, *other);
      }
    }
    for (const doc::Field& field : after.fields()) {
      if (before.Find(field.key) == nullptr) {
        out.push_back({FieldChangeType::kAdded, path.Field(field.key), {}, field.value});
      }
    }
  }

  void CompareKeyed(const FieldPath& path, const std::string& key, const doc::Node& before,
                    const doc::Node& after) {
    std::map<std::string, std::size_t> after_index;
    for (std::size_t i = 0; i < after.size(); ++i) {
      after_index[KeyText(*after[i].Find(key))] = i;
    }
    std::map<std::string, bool> in_before;
    doc::Node before_order = doc::Node::Sequence();
    for (std::size_t i = 0; i < before.size(); ++i) {
      const std::string value = KeyText(*before[i].Find(key));
      in_before[value] = true;
      const FieldPath item = path.Keyed(i, key, value);
      auto found = after_index.find(value);
      if (found == after_index.end()) {
        out.push_back({FieldChangeType::kRemoved, item, before[i], {}});
        continue;
      }
      before_order.push_back(*before[i].Find(key));
      Compare(item, before[i], after[found->second]);
    }
    doc::Node after_order = doc::Node::Sequence();
    for (std::size_t i = 0; i < after.size(); ++i) {
      const std::string value = KeyText(*after[i].Find(key));
      if (in_before.count(value) == 0) {
        out.push_back({FieldChangeType::kAdded, path.Keyed(i, key, value), {}, after[i]});
      } else {
        after_order.push_back(*after[i].Find(key));
      }
    }
    if (before_order != after_order) {
      out.push_back({FieldChangeType::kReordered, path, before_order, after_order});
    }
  }

  void CompareIndexed(const FieldPath& path, const doc::Node& before, const doc::Node& after) {
    const std::size_t common = std::min(before.size(), after.size());
    for (std::size_t i = 0; i < common; ++i) Compare(path.Index(i), before[i], after[i]);
    for (std::size_t i = common; i < before.size(); ++i) {
      out.push_back({FieldChangeType::kRemoved, path.Index(i), before[i], {}});
    }
    for (std::size_t i = common; i < after.size(); ++i) {
      out.push_back({FieldChangeType::kAdded, path.Index(i), {}, after[i]});
    }
  }
};

std::string Compact(const doc::Node& value) { return json::Write(value, false); }

std::string OrderText(const doc::Node& keys) {
  std::string text = "[";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) text += ", ";
    text += KeyText(keys[i]);
  }
  return text + "]";
}

}  // namespace

std::optional<std::string> ListKey(const doc::Node& before, const doc::Node& after) {
  static constexpr std::array<const char*, 4> kCandidates = {"name", "mountPath", "containerPort",
                                                             "key"};
  if (before.empty() && after.empty()) return std::nullopt;
  for (const char* candidate : kCandidates) {
    bool usable = true;
    for (const doc::Node* list : {&before, &after}) {
      std::vector<std::string> seen;
      for (const doc::Node& item : list->items()) {
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
      if (!usable) break;
    }
    if (usable) return std::string(candidate);
  }
  return std::nullopt;
}


std::vector<FieldDifference> DiffFields(const doc::Node& before, const doc::Node& after) {
  Differ differ;
  differ.Compare(FieldPath(), before, after);
  return std::move(differ.out);
}

std::string FormatFieldDifference(const FieldDifference& difference, const std::string& prefix) {
  std::string path = difference.path.Keyed();
  if (!prefix.empty()) path = path.empty() ? prefix : prefix + "." + path;
  if (path.empty()) path = "(document)";
  switch (difference.type) {
    case FieldChangeType::kAdded:
      return "+ " + path + ": " + Compact(difference.after);
    case FieldChangeType::kRemoved:
      return "- " + path + ": " + Compact(difference.before);
    case FieldChangeType::kReordered:
      return "~ " + path + ": order " + OrderText(difference.before) + " -> " +
             OrderText(difference.after);
    case FieldChangeType::kChanged:
      break;
  }
  return "~ " + path + ": " + Compact(difference.before) + " -> " + Compact(difference.after);
}

}  // namespace tjr::docdiff
