#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "base/field_path.h"
#include "doc/node.h"
#include "smp/go_slice.h"
#include "smp/patch_meta.h"

// The recursive core of strategic merge patch, split over map_merge.cc,
// set_element_order.cc and list_merge.cc like the upstream functions it
// mirrors. Paths are those of the patch document; errors carry the location
// of the patch node they are about.
namespace tjr::smp {

/// An error about the patch node `at`, reached through `path`.
Diagnostic MergeError(const doc::Node& at, const FieldPath& path, std::string message);

/// mergeMap with the options StrategicMergePatch uses (merge parallel lists,
/// ignore unmatched nulls). `original` is a mapping or null (Go's nil map).
Result<doc::Node> MergeMap(const doc::Node& original, const doc::Node& patch,
                           const TypeRef& schema, const FieldPath& path);

/// applyRetainKeysDirective: consumes `$retainKeys` from `patch` and clears
/// the keys of `original` that it does not list.
Status ApplyRetainKeysDirective(doc::Node& original, doc::Node& patch, const FieldPath& path);

/// mergePatchIntoOriginal: consumes every `$setElementOrder/KEY` of `patch`
/// together with `KEY`, merging and ordering that list into `original`.
Status MergePatchIntoOriginal(doc::Node& original, doc::Node& patch, const TypeRef& schema,
                              const FieldPath& path);

/// mergeSliceHandler: mergeSlice for the merge strategy and for deletion
/// lists, otherwise the patch list itself. `original` views the decoded
/// items of `original_list` (its backing array may be written to).
Result<doc::Node> MergeSliceHandler(const GoSlice& original, const doc::Node& original_list,
                                    const doc::Node& patch_list, const TypeRef& element,
                                    std::string_view strategy, std::string_view merge_key,
                                    bool is_delete_list, const FieldPath& path);

/// The path of a patch list item: keyed by its merge key value when it has
/// a scalar one.
FieldPath ItemPath(const FieldPath& list_path, const doc::Node& patch_list, const doc::Node& item,
                   std::string_view merge_key);

}  // namespace tjr::smp
