#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "doc/node.h"

namespace tjr::render {

// Reading goes through doc/path.h (doc::FindPath, doc::StringAtPath);
// these build.

/// The mapping field `key` of `*node`, created as an empty mapping when
/// absent or not a mapping; `*node` itself becomes a mapping if it is not one.
doc::Node& Child(doc::Node* node, std::string_view key);

/// Walks `path` with Child.
doc::Node& ChildPath(doc::Node* node, std::initializer_list<std::string_view> path);

/// Whether a value counts as empty for Go's omitempty on a map or slice
/// (absent, null or no elements).
bool IsEmptyCollection(const doc::Node* node);

}  // namespace tjr::render
