#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "smp/go_value.h"
#include "smp/outcome.h"
#include "smp/upstream_errors.h"

// The list bookkeeping of strategic merge patch: finding items by merge key,
// splitting merged lists into patch items and server-only items, and the
// order rules of normalizeElementOrder / mergeSortedSlice. Everything here
// follows Go's comparison rules (go_value.h); a Go panic becomes a failure.
namespace tjr::smp {

struct Found {
  bool found = false;
  std::size_t index = 0;
};

/// findMapInSliceBasedOnKeyValue: the first item whose `key` field is present
/// and == `value` (nil matches an explicit null). Every item up to the match
/// must be a map. `List` is std::vector<doc::Node> or GoSlice.
template <class List>
Outcome<Found> FindMapByKeyValue(const List& list, std::string_view key, const doc::Node* value) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const doc::Node& item = list[i];
    if (!item.is_mapping()) {
      return Outcome<Found>::Fail("value for key " + std::to_string(i) + " is not a map");
    }
    const doc::Node* candidate = item.Find(key);
    if (candidate == nullptr) continue;
    switch (GoEqual(candidate, value)) {
      case GoCompare::kEqual: return Found{true, i};
      case GoCompare::kPanics: return Outcome<Found>::Fail(ErrUpstreamPanic(GoComparePanic(value)));
      case GoCompare::kDifferent: break;
    }
  }
  return Found{};
}

/// sliceElementType: the one Go type of all items of all lists ("list element
/// types are not identical", "lists of lists are not supported", "no
/// elements in any of the given slices").
Outcome<GoType> SliceElementType(std::initializer_list<const std::vector<doc::Node>*> lists);

/// mergeKeyValueEqual: whether two list items have equal merge key values
/// (the items themselves when `merge_key` is empty).
Outcome<bool> MergeKeyValueEqual(const doc::Node& left, const doc::Node& right,
                                 std::string_view merge_key);

/// validatePatchWithSetOrderList: the non-deleting items of the patch list
/// must appear in the $setElementOrder list, in the same relative order.
Outcome<Unit> ValidatePatchWithSetOrderList(const std::vector<doc::Node>& patch_list,
                                            const std::vector<doc::Node>& set_order,
                                            std::string_view merge_key);

/// Items of a merged list split by presence in a reference list.
struct Partition {
  std::vector<doc::Node> patch_items;
  std::vector<doc::Node> server_only;
};

/// partitionPrimitivesByPresentInList (Go map membership: hashing panics on
/// maps and lists).
Outcome<Partition> PartitionPrimitives(const std::vector<doc::Node>& merged,
                                       const std::vector<doc::Node>& partition_by);

/// partitionMapsByPresentInList: every merged item must be a map with the
/// merge key; presence is by merge key value.
Outcome<Partition> PartitionMaps(const std::vector<doc::Node>& merged,
                                 const std::vector<doc::Node>& partition_by,
                                 std::string_view merge_key);

/// normalizeElementOrder: sorts the patch items by `patch_order` and the
/// server-only items by `server_order` (sort.SliceStable with upstream's
/// comparison), then interleaves them with mergeSortedSlice. `maps` is
/// whether the list items are maps (reflect.Map), which selects lookup by
/// merge key.
Outcome<std::vector<doc::Node>> NormalizeElementOrder(std::vector<doc::Node> patch_items,
                                                      std::vector<doc::Node> server_only,
                                                      const std::vector<doc::Node>& patch_order,
                                                      const std::vector<doc::Node>& server_order,
                                                      std::string_view merge_key, bool maps);

/// index: the position of `value` in `list` by merge key (maps) or by value,
/// -1 when absent.
Outcome<long> IndexOf(const std::vector<doc::Node>& list, const doc::Node& value,
                      std::string_view merge_key, bool maps);

}  // namespace tjr::smp
