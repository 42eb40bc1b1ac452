// mergePatchIntoOriginal of apimachinery strategicpatch: the
// `$setElementOrder/KEY` directive.
#include <algorithm>
#include <optional>

#include "smp/directives.h"
#include "smp/element_order.h"
#include "smp/go_value.h"
#include "smp/merge_internal.h"
#include "smp/upstream_errors.h"

namespace tjr::smp {

Status MergePatchIntoOriginal(doc::Node& original, doc::Node& patch, const TypeRef& schema,
                              const FieldPath& path) {
  // Sorted for determinism, as in MergeMap. Upstream deletes consumed keys
  // while ranging over the patch, so a key consumed earlier is skipped.
  std::vector<std::string> keys;
  for (const doc::Field& field : patch.fields()) {
    if (StartsWith(field.key, kSetElementOrderPrefix)) keys.push_back(field.key);
  }
  std::sort(keys.begin(), keys.end());

  for (const std::string& key : keys) {
    const doc::Node* directive = patch.Find(key);
    if (directive == nullptr) continue;
    const doc::Node set_order = *directive;
    patch.Erase(key);
    const FieldPath here = path.Field(key);
    if (!set_order.is_sequence()) {
      return MergeError(set_order, here, ErrBadArgType(GoType::kSlice, &set_order));
    }
    Outcome<std::string> target = ExtractDirectiveKey(key, kSetElementOrderPrefix);
    if (!target.ok()) return MergeError(set_order, here, target.error());
    const std::string& list_key = target.value();
    const FieldPath list_path = path.Field(list_key);

    std::optional<doc::Node> original_list;
    if (const doc::Node* found = original.Find(list_key)) original_list = *found;
    std::optional<doc::Node> patch_list;
    Location patch_key_location = {};
    for (const doc::Field& field : patch.fields()) {
      if (field.key == list_key) {
        patch_list = field.value;
        patch_key_location = field.key_location;
      }
    }
    // The original list as upstream holds it: merging below may write into
    // its backing array, and the order is then taken from what it shows.
    GoSlice original_view;
    if (original_list) {
      if (!original_list->is_sequence()) {
        return MergeError(patch_list ? *patch_list : set_order, list_path,
                          ErrBadArgType(GoType::kSlice, &*original_list));
      }
      original_view = GoSlice::Decoded(original_list->items());
    }
    std::vector<doc::Node> patch_items;
    if (patch_list) {
      if (!patch_list->is_sequence()) {
        return MergeError(*patch_list, list_path, ErrBadArgType(GoType::kSlice, &*patch_list));
      }
      patch_items = patch_list->items();
    }

    LookupResult lookup = LookupPatchMetadataForSlice(schema, list_key);
    if (!lookup.ok()) return MergeError(set_order, here, lookup.error());
    Outcome<std::string> strategy = NonRetainKeysStrategy(lookup.value().meta.strategies);
    if (!strategy.ok()) return MergeError(set_order, here, strategy.error());
    const std::string& merge_key = lookup.value().meta.merge_key;
    if (Outcome<Unit> valid =
            ValidatePatchWithSetOrderList(patch_items, set_order.items(), merge_key);
        !valid.ok()) {
      return MergeError(set_order, here, valid.error());
    }

    std::vector<doc::Node> merged;
    Location list_location = set_order.location();
    if (original_list && !patch_list) {
      merged = original_view.ToVector();
      list_location = original_list->location();
    } else if (!original_list && patch_list) {
      merged = RemoveDirectives(*patch_list)->items();
      list_location = patch_list->location();
    } else if (original_list && patch_list) {
      Result<doc::Node> result =
          MergeSliceHandler(original_view, *original_list, *patch_list, lookup.value().type,
                            strategy.value(), merge_key, false, list_path);
      if (!result) return result.take_error();
      merged = result->items();
      list_location = original_list->location();
    } else {
      continue;
    }

    Outcome<Partition> parts = merge_key.empty()
                                   ? PartitionPrimitives(merged, set_order.items())
                                   : PartitionMaps(merged, set_order.items(), merge_key);
    if (!parts.ok()) return MergeError(set_order, here, parts.error());
    const std::vector<doc::Node> server_order = original_view.ToVector();
    Outcome<GoType> element_type = SliceElementType({&server_order, &patch_items});
    if (!element_type.ok()) return MergeError(set_order, here, element_type.error());
    Partition split = std::move(parts).value();
    Outcome<std::vector<doc::Node>> ordered = NormalizeElementOrder(
        std::move(split.patch_items), std::move(split.server_only), set_order.items(),
        server_order, merge_key, element_type.value() == GoType::kMap);
    if (!ordered.ok()) return MergeError(set_order, here, ordered.error());

    doc::Node list = doc::Node::Sequence(list_location);
    list.mutable_items() = std::move(ordered).value();
    if (original_list) {
      original.Set(list_key, std::move(list));
    } else {
      original.Set(list_key, std::move(list),
                   patch_list ? patch_key_location : Location{});
    }
    patch.Erase(list_key);
  }
  return Ok();
}

}  // namespace tjr::smp
