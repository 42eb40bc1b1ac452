#include "explain/chains.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "explain/paths.h"

namespace tjr::explain {
namespace {

struct Entry {
  std::string path;
  doc::Node node;
  std::string parent;     ///< the parent field's path ("" under the root)
  std::string list_path;  ///< for a list item: the list's path
  bool item = false;
};

// One stage's fields, by path, and each list's items in order.
struct Flat {
  std::vector<Entry> entries;
  std::unordered_map<std::string, std::size_t> at;
  std::unordered_map<std::string, std::vector<std::string>> lists;

  const Entry* Find(const std::string& path) const {
    auto it = at.find(path);
    return it == at.end() ? nullptr : &entries[it->second];
  }
};

Flat Flatten(const doc::Node& object) {
  Flat flat;
  if (object.is_null()) return flat;
  std::unordered_map<std::string, std::string> parent_of;
  WalkFields(object, [&](const std::string& path, const doc::Node& node, const std::string* list_path,
                         std::size_t) {
    Entry entry{path, node, {}, list_path != nullptr ? *list_path : std::string(), list_path != nullptr};
    // The parent is the deepest field before this one whose path prefixes it.
    for (std::size_t i = flat.entries.size(); i-- > 0;) {
      const std::string& candidate = flat.entries[i].path;
      if (candidate.size() < path.size() && path.compare(0, candidate.size(), candidate) == 0 &&
          (candidate.empty() || path[candidate.size()] == '.' || path[candidate.size()] == '[')) {
        entry.parent = candidate;
        break;
      }
    }
    if (entry.item) flat.lists[entry.list_path].push_back(path);
    // A path seen twice (two items with equal keys cannot be: keyed lists
    // have distinct keys) keeps its first node.
    if (flat.at.emplace(path, flat.entries.size()).second) flat.entries.push_back(std::move(entry));
  });
  return flat;
}

bool LocationsDiffer(const Location& a, const Location& b) {
  return a.known() && b.known() && (a.file != b.file || a.line != b.line || a.column != b.column);
}

bool Changed(const doc::Node& before, const doc::Node& after) {
  if (IsLeaf(before) || IsLeaf(after)) {
    return !(before == after) || LocationsDiffer(before.location(), after.location());
  }
  return before.kind() != after.kind();
}

// Whether `path` changed its order against another item both lists hold.
bool FlippedAgainstAnother(const std::vector<std::string>& before, const std::vector<std::string>& after,
                           const std::string& path) {
  std::unordered_map<std::string, std::size_t> in_before;
  for (std::size_t i = 0; i < before.size(); ++i) in_before.emplace(before[i], i);
  auto self_before = in_before.find(path);
  if (self_before == in_before.end()) return false;
  std::size_t self_after = after.size();
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (after[i] == path) self_after = i;
  }
  for (std::size_t i = 0; i < after.size(); ++i) {
    auto other = in_before.find(after[i]);
    if (i == self_after || other == in_before.end()) continue;
    if ((other->second < self_before->second) != (i < self_after)) return true;
  }
  return false;
}

ItemHistory HistoryOf(const std::vector<Flat>& flats, const Entry& entry) {
  ItemHistory history;
  history.list_path = entry.list_path;
  const std::size_t last = flats.size() - 1;
  std::size_t k = last;
  while (k > 0 && flats[k - 1].Find(entry.path) != nullptr) --k;
  history.arrived = k;
  const std::vector<std::string>& final_items = flats[last].lists.at(entry.list_path);
  for (std::size_t i = 0; i < final_items.size(); ++i) {
    if (final_items[i] != entry.path) continue;
    history.index = i;
    if (i > 0) history.previous = final_items[i - 1];
    if (i + 1 < final_items.size()) history.next = final_items[i + 1];
  }
  for (std::size_t s = history.arrived + 1; s <= last; ++s) {
    auto before = flats[s - 1].lists.find(entry.list_path);
    auto after = flats[s].lists.find(entry.list_path);
    if (before == flats[s - 1].lists.end() || after == flats[s].lists.end()) continue;
    if (FlippedAgainstAnother(before->second, after->second, entry.path)) history.moved = s;
  }
  return history;
}

}  // namespace

bool IsLeaf(const doc::Node& node) {
  if (node.is_scalar()) return true;
  if (node.is_mapping()) return node.empty();
  for (const doc::Node& item : node.items()) {
    if (!item.is_scalar()) return false;
  }
  return true;
}

void WalkFields(const doc::Node& root,
                const std::function<void(const std::string& path, const doc::Node& node,
                                         const std::string* list_path, std::size_t index)>& on) {
  // Depth-first with an explicit stack: no recursion grows with the input.
  struct Pending {
    std::string path;
    const doc::Node* node;
    std::string list_path;
    std::size_t index;
    bool item;
  };
  std::vector<Pending> stack;
  stack.push_back({"", &root, {}, 0, false});
  while (!stack.empty()) {
    Pending top = std::move(stack.back());
    stack.pop_back();
    on(top.path, *top.node, top.item ? &top.list_path : nullptr, top.index);
    if (IsLeaf(*top.node)) continue;
    const std::size_t mark = stack.size();
    if (top.node->is_mapping()) {
      for (const doc::Field& field : top.node->fields()) {
        stack.push_back({ChildPath(top.path, field.key), &field.value, {}, 0, false});
      }
    } else {
      const std::vector<doc::Node>& items = top.node->items();
      const std::string key = ListKeyOf(*top.node);
      for (std::size_t i = 0; i < items.size(); ++i) {
        stack.push_back({ItemPath(top.path, *top.node, i, key), &items[i], top.path, i, true});
      }
    }
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  }
}

std::vector<Field> ChainsFromStages(const std::vector<Stage>& stages, const Annotate& annotate,
                                    const OrderReason& order) {
  std::vector<Field> out;
  if (stages.empty()) return out;
  std::vector<Flat> flats;
  flats.reserve(stages.size());
  for (const Stage& stage : stages) flats.push_back(Flatten(stage.object));
  const Flat& final_flat = flats.back();

  auto chain_of = [&](const std::string& path) {
    std::vector<Step> chain;
    const Entry* previous = nullptr;
    for (std::size_t k = 0; k < flats.size(); ++k) {
      const Entry* current = flats[k].Find(path);
      const bool record = current != nullptr ? previous == nullptr || Changed(previous->node, current->node)
                                             : previous != nullptr;
      if (record) {
        Step step;
        step.layer = stages[k].layer;
        step.action = current != nullptr ? Action::kSet : Action::kDeleted;
        if (current != nullptr) {
          step.value = current->node;
          step.location = current->node.location();
        }
        if (!annotate || annotate(stages[k], path, step.value, &step)) chain.push_back(std::move(step));
      }
      previous = current;
    }
    return chain;
  };

  for (const Entry& entry : final_flat.entries) {
    Field field;
    field.path = entry.path;
    field.chain = chain_of(entry.path);
    if (entry.item && order) field.order = order(entry.path, HistoryOf(flats, entry));
    out.push_back(std::move(field));
  }
  // Deleted values, in the order their stages had them; a subtree deleted
  // with its parent is the parent's deletion.
  std::unordered_set<std::string> seen;
  for (std::size_t k = 0; k + 1 < flats.size(); ++k) {
    for (const Entry& entry : flats[k].entries) {
      if (final_flat.Find(entry.path) != nullptr || !seen.insert(entry.path).second) continue;
      std::size_t gone = k + 1;
      while (gone < flats.size() && flats[gone].Find(entry.path) != nullptr) ++gone;
      if (gone < flats.size() && !entry.path.empty() && final_flat.Find(entry.parent) == nullptr &&
          flats[gone - 1].Find(entry.parent) != nullptr && flats[gone].Find(entry.parent) == nullptr) {
        continue;  // the parent went at the same stage
      }
      Field field;
      field.path = entry.path;
      field.chain = chain_of(entry.path);
      field.present = false;
      out.push_back(std::move(field));
    }
  }
  return out;
}

}  // namespace tjr::explain
