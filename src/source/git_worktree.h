#pragma once
// Internal to the libgit2 adapter (git_*.cc): which working-tree files differ
// from the index. Includes git2.h, so no other module may include it.

#include <git2.h>

#include <string>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// The repository paths under one of `scope` (normal repository paths, see
/// NormalizeRepoPath; empty: everything) whose working-tree file may differ
/// from `index`: tracked files that are missing, of another type, or whose
/// bytes differ (decided as git and libgit2 do: an lstat that matches the
/// index entry and is not racily clean means unchanged, anything else is
/// hashed through the repository's filters), and files the index lacks
/// (untracked and ignored alike; `.git` is skipped). Submodules and
/// conflicted entries: a conflict counts as a change, a submodule never.
/// The lstat pass runs on `threads` threads (0: one per core): on a VM an
/// lstat costs a few microseconds, and ten thousand of them were half of a
/// `--since` run. Sorted and unique.
Result<std::vector<std::string>> WorktreeChanges(git_repository* repo, git_index* index,
                                                 const std::vector<std::string>& scope, unsigned threads);

}  // namespace tjr::source
