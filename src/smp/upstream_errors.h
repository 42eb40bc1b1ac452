#pragma once

#include <string>
#include <string_view>

#include "doc/node.h"
#include "smp/go_value.h"

// The texts of apimachinery's mergepatch and strategicpatch errors, built
// from the same Go formatting (%v of maps, reflect type names).
namespace tjr::smp {

inline constexpr std::string_view kErrBadJsonDoc = "invalid JSON document";
inline constexpr std::string_view kErrNoListOfLists = "lists of lists are not supported";
inline constexpr std::string_view kErrBadPatchFormatForRetainKeys =
    "invalid patch format of retainKeys";
inline constexpr std::string_view kErrBadPatchFormatForSetElementOrderList =
    "invalid patch format of setElementOrder list";

/// mergepatch.ErrNoMergeKey
std::string ErrNoMergeKey(const doc::Node& map, std::string_view merge_key);
/// mergepatch.ErrBadArgType(expected typed nil, actual)
std::string ErrBadArgType(GoType expected, const doc::Node* actual);
/// mergepatch.ErrBadPatchType
std::string ErrBadPatchType(const doc::Node& directive, const doc::Node& map);
/// What the merge code does where Go panics (a runtime error in the
/// upstream process); the message names the Go runtime error.
std::string ErrUpstreamPanic(std::string_view runtime_error);

}  // namespace tjr::smp
