#include "smp/element_order.h"

#include <optional>
#include <utility>

#include "smp/directives.h"
#include "smp/go_sort.h"

namespace tjr::smp {
namespace {

template <class T>
Outcome<T> Fail(std::string message) {
  return Outcome<T>::Fail(std::move(message));
}

// The value `index` compares: the merge key value of a map item (nil when
// absent or not a map), or the item itself.
const doc::Node* LookupValue(const doc::Node& item, std::string_view merge_key, bool maps) {
  if (!maps) return &item;
  return item.is_mapping() ? item.Find(merge_key) : nullptr;
}

Outcome<Unit> ValidateMergeKeyInLists(std::string_view merge_key,
                                      std::initializer_list<const std::vector<doc::Node>*> lists) {
  for (const std::vector<doc::Node>* list : lists) {
    for (const doc::Node& item : *list) {
      if (!item.is_mapping()) return Fail<Unit>(ErrBadArgType(GoType::kMap, &item));
      if (item.Find(merge_key) == nullptr) return Fail<Unit>(ErrNoMergeKey(item, merge_key));
    }
  }
  return Unit{};
}

// extractToDeleteItems: (items to keep, items with `$patch: delete`).
Outcome<Partition> ExtractToDeleteItems(const std::vector<doc::Node>& list) {
  Partition out;  // patch_items: kept, server_only: to delete
  for (const doc::Node& item : list) {
    if (!item.is_mapping()) return Fail<Partition>(ErrBadArgType(GoType::kMap, &item));
    (IsDeleteElement(item) ? out.server_only : out.patch_items).push_back(item);
  }
  return out;
}

// normalizeSliceOrder. Go computes the positions inside the sort's Less
// calls, so a position whose computation panics only matters when the sort
// asks for it; they are computed lazily here for the same reason.
Outcome<std::vector<doc::Node>> NormalizeSliceOrder(std::vector<doc::Node> to_sort,
                                                    const std::vector<doc::Node>& order,
                                                    std::string_view merge_key, bool maps) {
  std::vector<doc::Node> to_delete;
  if (maps) {
    Outcome<Unit> valid = ValidateMergeKeyInLists(merge_key, {&to_sort, &order});
    if (!valid.ok()) return Fail<std::vector<doc::Node>>(valid.error());
    Outcome<Partition> split = ExtractToDeleteItems(to_sort);
    if (!split.ok()) return Fail<std::vector<doc::Node>>(split.error());
    Partition parts = std::move(split).value();
    to_sort = std::move(parts.patch_items);
    to_delete = std::move(parts.server_only);
  }
  struct Entry {
    doc::Node node;
    std::optional<long> position;
  };
  std::vector<Entry> entries;
  entries.reserve(to_sort.size());
  for (doc::Node& node : to_sort) entries.push_back(Entry{std::move(node), std::nullopt});

  std::optional<std::string> failure;
  const auto position = [&](std::size_t i) -> std::optional<long> {
    Entry& entry = entries[i];
    if (!entry.position) {
      Outcome<long> found = IndexOf(order, entry.node, merge_key, maps);
      if (!found.ok()) {
        failure = found.error();
        return std::nullopt;
      }
      entry.position = found.value();
    }
    return entry.position;
  };
  const auto less = [&](std::size_t i, std::size_t j) {
    if (failure) return false;
    const std::optional<long> pi = position(i);
    if (!pi) return false;
    if (*pi >= 0) {
      const std::optional<long> pj = position(j);
      if (!pj) return false;
      if (*pj >= 0) return *pi < *pj;
    }
    return true;
  };
  const auto swap = [&](std::size_t i, std::size_t j) { std::swap(entries[i], entries[j]); };
  GoSliceStable(entries.size(), less, swap);
  if (failure) return Fail<std::vector<doc::Node>>(*failure);

  std::vector<doc::Node> out;
  out.reserve(entries.size() + to_delete.size());
  for (Entry& entry : entries) out.push_back(std::move(entry.node));
  for (doc::Node& node : to_delete) out.push_back(std::move(node));
  return out;
}

// mergeSortedSlice: a server-only item goes first only when both heads are
// in the server order and it comes earlier there.
Outcome<std::vector<doc::Node>> MergeSortedSlice(const std::vector<doc::Node>& left,
                                                 const std::vector<doc::Node>& right,
                                                 const std::vector<doc::Node>& server_order,
                                                 std::string_view merge_key, bool maps) {
  std::vector<doc::Node> out;
  out.reserve(left.size() + right.size());
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < left.size() || j < right.size()) {
    if (i >= left.size()) {
      out.push_back(right[j++]);
    } else if (j >= right.size()) {
      out.push_back(left[i++]);
    } else {
      Outcome<long> li = IndexOf(server_order, left[i], merge_key, maps);
      if (!li.ok()) return Fail<std::vector<doc::Node>>(li.error());
      Outcome<long> ri = IndexOf(server_order, right[j], merge_key, maps);
      if (!ri.ok()) return Fail<std::vector<doc::Node>>(ri.error());
      if (li.value() >= 0 && ri.value() >= 0 && li.value() < ri.value()) {
        out.push_back(left[i++]);
      } else {
        out.push_back(right[j++]);
      }
    }
  }
  return out;
}

}  // namespace

Outcome<long> IndexOf(const std::vector<doc::Node>& list, const doc::Node& value,
                      std::string_view merge_key, bool maps) {
  const doc::Node* wanted = LookupValue(value, merge_key, maps);
  for (std::size_t i = 0; i < list.size(); ++i) {
    switch (GoEqual(wanted, LookupValue(list[i], merge_key, maps))) {
      case GoCompare::kEqual: return static_cast<long>(i);
      case GoCompare::kPanics: return Fail<long>(ErrUpstreamPanic(GoComparePanic(wanted)));
      case GoCompare::kDifferent: break;
    }
  }
  return -1L;
}

Outcome<GoType> SliceElementType(std::initializer_list<const std::vector<doc::Node>*> lists) {
  bool seen = false;
  GoType type = GoType::kNil;
  for (const std::vector<doc::Node>* list : lists) {
    for (const doc::Node& item : *list) {
      const GoType current = GoTypeOf(item);
      if (!seen) {
        seen = true;
        type = current;
        if (type == GoType::kNil) {
          // reflect.TypeOf(nil).Kind() dereferences a nil interface.
          return Fail<GoType>(
              ErrUpstreamPanic("runtime error: invalid memory address or nil pointer dereference"));
        }
        if (type == GoType::kSlice) return Fail<GoType>(std::string(kErrNoListOfLists));
      } else if (current != type) {
        std::string text = "list element types are not identical: [";
        bool first = true;
        for (const std::vector<doc::Node>* each : lists) {
          if (!first) text += ' ';
          first = false;
          doc::Node as_list = doc::Node::Sequence();
          as_list.mutable_items() = *each;
          text += GoSprintV(as_list);
        }
        return Fail<GoType>(text + "]");
      }
    }
  }
  if (!seen) return Fail<GoType>("no elements in any of the given slices");
  return type;
}

Outcome<bool> MergeKeyValueEqual(const doc::Node& left, const doc::Node& right,
                                 std::string_view merge_key) {
  const auto compare = [](const doc::Node* a, const doc::Node* b) -> Outcome<bool> {
    switch (GoEqual(a, b)) {
      case GoCompare::kEqual: return true;
      case GoCompare::kDifferent: return false;
      case GoCompare::kPanics: break;
    }
    return Fail<bool>(ErrUpstreamPanic(GoComparePanic(a)));
  };
  if (merge_key.empty()) return compare(&left, &right);
  if (!left.is_mapping()) return Fail<bool>(ErrBadArgType(GoType::kMap, &left));
  if (!right.is_mapping()) return Fail<bool>(ErrBadArgType(GoType::kMap, &right));
  const doc::Node* left_key = left.Find(merge_key);
  if (left_key == nullptr) return Fail<bool>(ErrNoMergeKey(left, merge_key));
  const doc::Node* right_key = right.Find(merge_key);
  if (right_key == nullptr) return Fail<bool>(ErrNoMergeKey(right, merge_key));
  return compare(left_key, right_key);
}

Outcome<Unit> ValidatePatchWithSetOrderList(const std::vector<doc::Node>& patch_list,
                                            const std::vector<doc::Node>& set_order,
                                            std::string_view merge_key) {
  if (set_order.empty() || patch_list.empty()) return Unit{};
  std::vector<doc::Node> non_delete = patch_list;
  if (!merge_key.empty()) {
    Outcome<Partition> split = ExtractToDeleteItems(patch_list);
    if (!split.ok()) return Fail<Unit>(split.error());
    non_delete = std::move(split).value().patch_items;
  }
  std::size_t patch_index = 0;
  std::size_t order_index = 0;
  while (patch_index < non_delete.size() && order_index < set_order.size()) {
    if (HasPatchDirective(non_delete[patch_index])) {
      ++patch_index;
      continue;
    }
    Outcome<bool> equal =
        MergeKeyValueEqual(non_delete[patch_index], set_order[order_index], merge_key);
    if (!equal.ok()) return Fail<Unit>(equal.error());
    if (equal.value()) ++patch_index;
    ++order_index;
  }
  if (patch_index < non_delete.size() && order_index >= set_order.size()) {
    doc::Node patch_node = doc::Node::Sequence();
    patch_node.mutable_items() = patch_list;
    doc::Node order_node = doc::Node::Sequence();
    order_node.mutable_items() = set_order;
    return Fail<Unit>("The order in patch list:\n" + GoSprintV(patch_node) + "\n doesn't match " +
                      std::string(kSetElementOrderPrefix) + " list:\n" + GoSprintV(order_node) +
                      "\n");
  }
  return Unit{};
}

Outcome<Partition> PartitionPrimitives(const std::vector<doc::Node>& merged,
                                       const std::vector<doc::Node>& partition_by) {
  for (const doc::Node& item : partition_by) {
    if (!GoHashable(&item)) return Fail<Partition>(ErrUpstreamPanic(GoHashPanic(&item)));
  }
  Partition out;
  for (const doc::Node& item : merged) {
    if (!GoHashable(&item)) return Fail<Partition>(ErrUpstreamPanic(GoHashPanic(&item)));
    bool present = false;
    for (const doc::Node& candidate : partition_by) {
      if (GoEqual(&item, &candidate) == GoCompare::kEqual) {
        present = true;
        break;
      }
    }
    (present ? out.patch_items : out.server_only).push_back(item);
  }
  return out;
}

Outcome<Partition> PartitionMaps(const std::vector<doc::Node>& merged,
                                 const std::vector<doc::Node>& partition_by,
                                 std::string_view merge_key) {
  Partition out;
  for (const doc::Node& item : merged) {
    if (!item.is_mapping()) return Fail<Partition>(ErrBadArgType(GoType::kMap, &item));
    const doc::Node* value = item.Find(merge_key);
    if (value == nullptr) return Fail<Partition>(ErrNoMergeKey(item, merge_key));
    Outcome<Found> found = FindMapByKeyValue(partition_by, merge_key, value);
    if (!found.ok()) return Fail<Partition>(found.error());
    (found.value().found ? out.patch_items : out.server_only).push_back(item);
  }
  return out;
}

Outcome<std::vector<doc::Node>> NormalizeElementOrder(std::vector<doc::Node> patch_items,
                                                      std::vector<doc::Node> server_only,
                                                      const std::vector<doc::Node>& patch_order,
                                                      const std::vector<doc::Node>& server_order,
                                                      std::string_view merge_key, bool maps) {
  Outcome<std::vector<doc::Node>> patch =
      NormalizeSliceOrder(std::move(patch_items), patch_order, merge_key, maps);
  if (!patch.ok()) return patch;
  Outcome<std::vector<doc::Node>> server =
      NormalizeSliceOrder(std::move(server_only), server_order, merge_key, maps);
  if (!server.ok()) return server;
  return MergeSortedSlice(server.value(), patch.value(), server_order, merge_key, maps);
}

}  // namespace tjr::smp
