#pragma once
// Internal to the libgit2 adapter (git_*.cc): which working-tree files differ
// from the index. Includes git2.h, so no other module may include it.

#include <git2.h>
#include <time.h>

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/git_index_file.h"

namespace tjr::source {

/// libgit2's entries of `index` as IndexEntry, paths pointing into `index`
/// (valid while it lives unchanged).
std::vector<IndexEntry> EntriesOf(git_index* index);

/// The repository paths under one of `scope` (normal repository paths, see
/// NormalizeRepoPath; empty: everything) whose working-tree file may differ
/// from the index whose `entries` (any order) were read from a file last
/// modified at `index_mtime`: tracked files that are missing, of another
/// type, or whose bytes differ (decided as git and libgit2 do: an lstat that
/// matches the index entry and is not racily clean means unchanged,
/// anything else is hashed through the repository's filters), and files the
/// index lacks (untracked and ignored alike; `.git` is skipped). Submodules
/// and conflicted entries: a conflict counts as a change, a submodule never.
/// The lstat pass runs on `threads` threads (0: one per core): on a VM an
/// lstat costs a few microseconds, and ten thousand of them were half of a
/// `--since` run; each file is looked up in its folder's descriptor, so the
/// kernel does not walk the whole path each time. Sorted and unique.
Result<std::vector<std::string>> WorktreeChanges(git_repository* repo, const std::vector<IndexEntry>& entries,
                                                 const struct timespec& index_mtime,
                                                 const std::vector<std::string>& scope, unsigned threads);

}  // namespace tjr::source
