#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "doc/node.h"
#include "smp/outcome.h"

// The closed set of strategic merge patch directives and the helpers that
// recognise, parse and strip them (apimachinery strategicpatch/patch.go).
namespace tjr::smp {

inline constexpr std::string_view kPatchDirectiveKey = "$patch";
inline constexpr std::string_view kReplaceDirective = "replace";
inline constexpr std::string_view kDeleteDirective = "delete";
inline constexpr std::string_view kMergeDirective = "merge";
inline constexpr std::string_view kRetainKeysStrategy = "retainKeys";
inline constexpr std::string_view kRetainKeysDirective = "$retainKeys";
inline constexpr std::string_view kDeleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";
inline constexpr std::string_view kSetElementOrderPrefix = "$setElementOrder";

/// The value of a `$patch` key as the merge code compares it.
enum class PatchDirective { kReplace, kDelete, kMerge, kUnknown };

/// `$patch: replace|delete|merge`; anything else (another string, a number,
/// null...) is kUnknown.
PatchDirective ParsePatchDirective(const doc::Node& value);

/// Whether `value` is a mapping with a `$patch` key (containsDirectiveMarker).
bool HasPatchDirective(const doc::Node& value);

/// Whether `value` is a mapping whose `$patch` is exactly "delete".
bool IsDeleteElement(const doc::Node& value);

bool StartsWith(std::string_view text, std::string_view prefix);

/// The list key of `$deleteFromPrimitiveList/KEY` or `$setElementOrder/KEY`
/// (extractKey): the text after the first '/', when what precedes it is
/// exactly `prefix`; otherwise the upstream error message.
Outcome<std::string> ExtractDirectiveKey(std::string_view key, std::string_view prefix);

/// removeDirectives: drops every mapping that carries `$patch` (and the map
/// field or list item holding it); nullopt when `value` itself is one.
/// Other directive keys ($retainKeys, $setElementOrder/...) are kept, as
/// upstream keeps them. Unchanged subtrees are returned shared.
std::optional<doc::Node> RemoveDirectives(const doc::Node& value);

/// discardNullValuesFromPatch: drops null-valued map fields at any depth
/// (null list items stay). Unchanged subtrees are returned shared.
doc::Node DiscardNullValues(const doc::Node& value);

/// extractRetainKeysPatchStrategy: the patch strategy other than retainKeys
/// ("" when none), or the upstream error for an unsupported combination.
Outcome<std::string> NonRetainKeysStrategy(const std::vector<std::string>& strategies);

}  // namespace tjr::smp
