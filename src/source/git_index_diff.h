#pragma once
// Internal to the libgit2 adapter (git_*.cc): a tree against an index read
// by ReadIndexFile. Includes git2.h, so no other module may include it.

#include <git2.h>

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/git_index_file.h"

namespace tjr::source {

/// Appends to `out` the paths under one of `scope` (see InScope; empty:
/// everything) that libgit2's git_diff_tree_to_index(base, index) reports
/// (case-sensitive, conflicts included, assume-unchanged entries the tree
/// lacks left out, modes compared as stored): added, deleted, modified,
/// type-changed and conflicted paths, in no particular order. Folders whose
/// tree the index's cache tree names and `base` holds unchanged are not
/// read; neither are folders out of scope. An error for an index libgit2
/// would read differently (a path both merged and conflicted) or an object
/// that cannot be read.
Status TreeIndexChanges(git_repository* repo, const git_tree* base, const IndexFile& index,
                        const std::vector<std::string>& scope, std::vector<std::string>* out);

}  // namespace tjr::source
