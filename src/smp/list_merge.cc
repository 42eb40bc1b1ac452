// mergeSliceHandler, mergeSlice and their helpers of apimachinery
// strategicpatch: lists of scalars (union, deletion lists) and lists of maps
// (by merge key, with `$patch` items).
#include <cstddef>
#include <optional>
#include <string>

#include "smp/directives.h"
#include "smp/element_order.h"
#include "smp/go_value.h"
#include "smp/merge_internal.h"
#include "smp/upstream_errors.h"

namespace tjr::smp {
namespace {

// apimachinery compares each patch item with the list it merges into, and
// each scalar with every later one (mergeSlice, deduplicateScalars, the
// element order normalisation): N items cost N², for upstream as here. A
// pod template holds a few dozen per list; the API server's 3 MiB request
// bound still lets 100,000 env vars through. Longer lists are refused
// rather than merged for minutes.
constexpr std::size_t kMaxMergedListItems = 5000;

// deduplicateScalars, in place: a later duplicate is overwritten with the
// last element and the slice shrinks. When `both` still shares the backing
// array of the original list, the original list sees these writes.
void DeduplicateScalars(GoSlice& both) {
  auto length = static_cast<std::ptrdiff_t>(both.size()) - 1;
  for (std::ptrdiff_t i = 0; i < length; ++i) {
    for (std::ptrdiff_t j = i + 1; j <= length; ++j) {
      if (GoEqual(&both[static_cast<std::size_t>(i)], &both[static_cast<std::size_t>(j)]) ==
          GoCompare::kEqual) {
        both.Set(static_cast<std::size_t>(j), both[static_cast<std::size_t>(length)]);
        both.Truncate(static_cast<std::size_t>(length));
        --length;
        --j;
      }
    }
  }
}

// deleteFromSlice: the items of `current` equal to no item of `to_delete`.
std::vector<doc::Node> DeleteFromSlice(const std::vector<doc::Node>& current,
                                       const std::vector<doc::Node>& to_delete) {
  std::vector<doc::Node> kept;
  for (const doc::Node& item : current) {
    bool doomed = false;
    for (const doc::Node& victim : to_delete) {
      if (GoEqual(&item, &victim) == GoCompare::kEqual) {
        doomed = true;
        break;
      }
    }
    if (!doomed) kept.push_back(item);
  }
  return kept;
}

// deleteMatchingEntries: removes every item whose merge key equals `value`,
// shifting the rest down inside the backing array.
Status DeleteMatchingEntries(GoSlice& original, std::string_view merge_key,
                             const doc::Node* value, const doc::Node& at, const FieldPath& path) {
  while (true) {
    Outcome<Found> found = FindMapByKeyValue(original, merge_key, value);
    if (!found.ok()) return MergeError(at, path, found.error());
    if (!found.value().found) return Ok();
    original.RemoveAt(found.value().index);
  }
}

// mergeSliceWithSpecialElements: applies `$patch: delete` items to
// `original` and returns the other items; a `$patch: replace` item makes
// those other items the new original and leaves no patch items (nullopt).
Result<std::optional<std::vector<doc::Node>>> MergeSliceWithSpecialElements(
    GoSlice& original, const doc::Node& patch_list, std::string_view merge_key,
    const FieldPath& path) {
  std::vector<doc::Node> plain;
  bool replace = false;
  for (std::size_t i = 0; i < patch_list.size(); ++i) {
    const doc::Node& item = patch_list[i];
    const doc::Node* directive = item.Find(kPatchDirectiveKey);
    if (directive == nullptr) {
      plain.push_back(item);
      continue;
    }
    const FieldPath here = ItemPath(path, patch_list, item, merge_key);
    switch (ParsePatchDirective(*directive)) {
      case PatchDirective::kDelete: {
        const doc::Node* value = item.Find(merge_key);
        if (value == nullptr) return MergeError(item, here, ErrNoMergeKey(item, merge_key));
        if (Status deleted = DeleteMatchingEntries(original, merge_key, value, item, here);
            !deleted) {
          return deleted.take_error();
        }
        break;
      }
      case PatchDirective::kReplace:
        // Later `$patch` items are still checked.
        replace = true;
        break;
      case PatchDirective::kMerge:
        return MergeError(*directive, here.Field(kPatchDirectiveKey),
                          "merging lists cannot yet be specified in the patch");
      case PatchDirective::kUnknown:
        return MergeError(*directive, here.Field(kPatchDirectiveKey),
                          ErrBadPatchType(*directive, item));
    }
  }
  if (replace) {
    original = GoSlice::Of(std::move(plain));
    return std::optional<std::vector<doc::Node>>();
  }
  return std::optional<std::vector<doc::Node>>(std::move(plain));
}

// mergeSliceWithoutSpecialElements: merges each patch item into the first
// original item with its merge key value, or appends it (verbatim,
// directives and nulls included).
Result<GoSlice> MergeSliceWithoutSpecialElements(GoSlice original,
                                                 const std::vector<doc::Node>& patch,
                                                 const doc::Node& patch_list,
                                                 std::string_view merge_key,
                                                 const TypeRef& element, const FieldPath& path) {
  for (const doc::Node& item : patch) {
    const FieldPath here = ItemPath(path, patch_list, item, merge_key);
    const doc::Node* value = item.Find(merge_key);
    if (value == nullptr) return MergeError(item, here, ErrNoMergeKey(item, merge_key));
    Outcome<Found> found = FindMapByKeyValue(original, merge_key, value);
    if (!found.ok()) return MergeError(item, here, found.error());
    if (found.value().found) {
      Result<doc::Node> merged = MergeMap(original[found.value().index], item, element, here);
      if (!merged) return merged.take_error();
      original.Set(found.value().index, std::move(merged).value());
    } else {
      original.Append(item);
    }
  }
  return original;
}

// mergeSlice.
Result<std::vector<doc::Node>> MergeSlice(GoSlice original, const doc::Node& patch_list,
                                          const TypeRef& element, std::string_view merge_key,
                                          bool is_delete_list, const FieldPath& path) {
  const std::vector<doc::Node>& patch = patch_list.items();
  if (original.empty() && patch.empty()) return original.ToVector();
  if (original.size() + patch.size() > kMaxMergedListItems) {
    return MergeError(patch_list, path,
                      "merging a list of " + std::to_string(patch.size()) + " items into one of " +
                          std::to_string(original.size()) + ": tjrender merges lists of at most " +
                          std::to_string(kMaxMergedListItems) +
                          " items in all (each item is compared with the others, so the work grows with the square "
                          "of their number)");
  }
  const std::vector<doc::Node> original_items = original.ToVector();
  Outcome<GoType> type = SliceElementType({&original_items, &patch});
  if (!type.ok()) return MergeError(patch_list, path, type.error());

  if (type.value() != GoType::kMap) {
    if (is_delete_list) return DeleteFromSlice(original_items, patch);
    GoSlice both = original;
    both.AppendAll(patch);
    DeduplicateScalars(both);
    // Upstream picks the partition by the merge key, not by the elements'
    // type: scalars in a list with a merge key (`schedulingGates: []`
    // patched with `["x"]`) reach partitionMapsByPresentInList, which
    // refuses the first ("expected a map[string]interface {}, but received
    // a string").
    Outcome<Partition> parts = merge_key.empty() ? PartitionPrimitives(both.ToVector(), patch)
                                                 : PartitionMaps(both.ToVector(), patch, merge_key);
    if (!parts.ok()) return MergeError(patch_list, path, parts.error());
    Partition split = std::move(parts).value();
    // `original` is read again here, after deduplication may have written
    // into its backing array.
    Outcome<std::vector<doc::Node>> ordered =
        NormalizeElementOrder(std::move(split.patch_items), std::move(split.server_only), patch,
                              original.ToVector(), "", false);
    if (!ordered.ok()) return MergeError(patch_list, path, ordered.error());
    return std::move(ordered).value();
  }

  if (merge_key.empty()) {
    return MergeError(patch_list, path,
                      "cannot merge lists without merge key for " + element.KindName());
  }
  Result<std::optional<std::vector<doc::Node>>> special =
      MergeSliceWithSpecialElements(original, patch_list, merge_key, path);
  if (!special) return special.take_error();
  const std::vector<doc::Node> rest = special->value_or(std::vector<doc::Node>());
  Result<GoSlice> merged =
      MergeSliceWithoutSpecialElements(original, rest, patch_list, merge_key, element, path);
  if (!merged) return merged.take_error();
  Outcome<Partition> parts = PartitionMaps(merged->ToVector(), rest, merge_key);
  if (!parts.ok()) return MergeError(patch_list, path, parts.error());
  Partition split = std::move(parts).value();
  Outcome<std::vector<doc::Node>> ordered =
      NormalizeElementOrder(std::move(split.patch_items), std::move(split.server_only), rest,
                            original.ToVector(), merge_key, true);
  if (!ordered.ok()) return MergeError(patch_list, path, ordered.error());
  return std::move(ordered).value();
}

}  // namespace

FieldPath ItemPath(const FieldPath& list_path, const doc::Node& patch_list, const doc::Node& item,
                   std::string_view merge_key) {
  std::size_t index = 0;
  while (index < patch_list.size() && !patch_list[index].SharesRepresentationWith(item)) ++index;
  const doc::Node* key = item.is_mapping() && !merge_key.empty() ? item.Find(merge_key) : nullptr;
  if (key != nullptr && (key->is_string() || key->is_int())) {
    return list_path.Keyed(index, merge_key,
                           key->is_string() ? key->string_value() : std::to_string(key->int_value()));
  }
  return list_path.Index(index);
}

Result<doc::Node> MergeSliceHandler(const GoSlice& original, const doc::Node& original_list,
                                    const doc::Node& patch_list, const TypeRef& element,
                                    std::string_view strategy, std::string_view merge_key,
                                    bool is_delete_list, const FieldPath& path) {
  if (strategy != kMergeDirective && !is_delete_list) return patch_list;
  Result<std::vector<doc::Node>> merged =
      MergeSlice(original, patch_list, element, merge_key, is_delete_list, path);
  if (!merged) return merged.take_error();
  const std::vector<doc::Node>& items = merged.value();
  bool unchanged = items.size() == original_list.size();
  for (std::size_t i = 0; unchanged && i < items.size(); ++i) {
    unchanged = items[i].SharesRepresentationWith(original_list[i]);
  }
  if (unchanged) return original_list;
  doc::Node out = doc::Node::Sequence(original_list.location());
  out.mutable_items() = std::move(merged).value();
  return out;
}

}  // namespace tjr::smp
