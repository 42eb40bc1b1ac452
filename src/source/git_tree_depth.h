#pragma once
// Internal to the libgit2 adapter: how deep a revision's folders may nest.
// Every walk over trees is iterative, so no depth overflows the stack; the
// bound is Git's (core.maxTreeDepth, 4096 since Git 2.43.1: `git
// archive`, `git diff` and the tree walks refuse deeper trees), so a
// revision Git reads is one tjrender reads.

#include <cstddef>
#include <string_view>

#include "base/diagnostic.h"

namespace tjr::source {

/// Git's default core.maxTreeDepth: folders below the root.
inline constexpr std::size_t kMaxTreeDepth = 4096;

/// The folders `path` ("a/b/c", normalised; "" the root) nests below the
/// root, counting itself: 3 for "a/b/c", 0 for "".
std::size_t FolderDepth(std::string_view path);

/// The input error for the folder `path` (or a path under it) nesting
/// deeper than kMaxTreeDepth, located at the first folders of `path`
/// ("deep/d/d/..."): the full path of a hostile tree runs to kilobytes.
/// `where` names the revision ("revision HEAD").
Diagnostic TreeTooDeep(std::string_view path, std::string_view where);

}  // namespace tjr::source
