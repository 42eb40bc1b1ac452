#pragma once
// Test-only: libgit2's own diffs with ChangedPaths's options, the oracle the
// folder-by-folder comparisons (git_index_diff.h, git_tree_diff.h) are
// checked against. Includes git2.h, as the adapter's tests may.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "source/git_util.h"

namespace tjr::source {

using OraclePaths = std::vector<std::string>;

inline OraclePaths SortedUnique(OraclePaths paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

/// "d<i%4>/s<i%3>/f<i>.yaml": files spread over nested folders.
inline std::string NestedFileName(int i) {
  return "d" + std::to_string(i % 4) + "/s" + std::to_string(i % 3) + "/f" + std::to_string(i) + ".yaml";
}

/// Both sides of every delta the diff `make` builds with ChangedPaths's
/// options under `scope`, sorted and unique.
inline OraclePaths Libgit2Paths(OraclePaths scope,
                                const std::function<int(git_diff**, const git_diff_options*)>& make) {
  std::vector<char*> strings;
  for (std::string& s : scope) strings.push_back(s.data());
  // git_diff_options_init, not GIT_DIFF_OPTIONS_INIT: the macro leaves
  // fields to zero-initialization, which clang's -Wextra reports.
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  options.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH | GIT_DIFF_INCLUDE_TYPECHANGE;
  options.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
  options.pathspec.strings = strings.data();
  options.pathspec.count = strings.size();
  git_diff* diff = nullptr;
  EXPECT_EQ(make(&diff, &options), 0) << LastGitError();
  GitHandle<git_diff, git_diff_free> owned(diff);
  OraclePaths paths;
  for (std::size_t i = 0; diff != nullptr && i < git_diff_num_deltas(diff); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff, i);
    if (delta->status == GIT_DELTA_UNMODIFIED) continue;
    paths.emplace_back(delta->old_file.path);
    paths.emplace_back(delta->new_file.path);
  }
  return SortedUnique(paths);
}

}  // namespace tjr::source
