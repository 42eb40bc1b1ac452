#pragma once
// Internal to the libgit2 adapter (git_*.cc): two trees compared without
// walking what they share. Includes git2.h, so no other module may include
// it.

#include <git2.h>

#include <string>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// Appends to `out` the paths under one of `scope` (see InScope; empty:
/// everything) that libgit2's git_diff_tree_to_tree(base, head) reports
/// with ChangedPaths' options (literal paths, type changes, submodules
/// ignored): both sides of every added, deleted, modified or type-changed
/// entry, modes compared as stored, in no particular order. A folder with
/// the same id on both sides is not read (libgit2 1.5 walks every entry of
/// both trees: 20,000 for a 10,000-file folder); neither is one out of
/// scope. An error when an object cannot be read.
Status TreeTreeChanges(git_repository* repo, const git_tree* base, const git_tree* head,
                       const std::vector<std::string>& scope, std::vector<std::string>* out);

}  // namespace tjr::source
