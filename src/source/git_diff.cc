// ChangedPaths: libgit2's tree-to-tree and tree-to-index diffs reduced to
// the paths they touch, plus the index against the working tree
// (git_worktree.h).
#include <git2.h>

#include <algorithm>
#include <vector>

#include "source/git_tree.h"
#include "source/git_util.h"
#include "source/git_worktree.h"

namespace tjr::source {

Result<std::vector<std::string>> ChangedPaths(const std::string& repo_dir,
                                              const std::string& base_rev,
                                              const std::string& head_rev,
                                              const std::vector<std::string>& pathspec,
                                              unsigned threads) {
  auto repo = OpenRepository(repo_dir);
  if (!repo.ok()) return repo.take_error();
  Result<PeeledTree> base = PeelToTree(repo->get(), base_rev);
  if (!base.ok()) return base.take_error();

  std::vector<std::string> specs;
  for (const std::string& path : pathspec) {
    Result<std::string> normal = NormalizeRepoPath(path);
    if (!normal.ok()) return normal.take_error();
    if (normal->empty()) {  // the whole repository
      specs.clear();
      break;
    }
    specs.push_back(std::move(*normal));
  }
  std::vector<char*> spec_strings;
  for (std::string& spec : specs) spec_strings.push_back(spec.data());

  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  // Paths are literal: a folder named "a*" must not match "ab".
  options.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  options.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
  options.pathspec.strings = spec_strings.data();
  options.pathspec.count = spec_strings.size();
  options.context_lines = 0;

  git_diff* diff = nullptr;
  std::vector<std::string> paths;
  if (head_rev.empty()) {
    if (git_repository_is_bare(repo->get())) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "a bare repository has no working tree to compare with"));
    }
    // BASE against the index here, the index against the files in
    // WorktreeChanges: libgit2's own working-tree diff stats every file on
    // one thread.
    git_index* raw_index = nullptr;
    if (git_repository_index(&raw_index, repo->get()) != 0) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "cannot read the index: " + LastGitError()));
    }
    GitHandle<git_index, git_index_free> index(raw_index);
    Result<std::vector<std::string>> worktree = WorktreeChanges(repo->get(), index.get(), specs, threads);
    if (!worktree.ok()) return worktree.take_error();
    paths = std::move(*worktree);
    options.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
    if (git_diff_tree_to_index(&diff, repo->get(), base->tree.get(), index.get(), &options) != 0) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "cannot compare " + base_rev + " with the working tree: " +
                                        LastGitError()));
    }
  } else {
    Result<PeeledTree> head = PeelToTree(repo->get(), head_rev);
    if (!head.ok()) return head.take_error();
    options.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
    if (git_diff_tree_to_tree(&diff, repo->get(), base->tree.get(), head->tree.get(), &options) !=
        0) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "cannot compare " + base_rev + " with " + head_rev + ": " +
                                        LastGitError()));
    }
  }
  GitHandle<git_diff, git_diff_free> owned(diff);
  const std::size_t count = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff, i);
    if (delta->status == GIT_DELTA_UNMODIFIED) continue;
    if (delta->old_file.path != nullptr) paths.emplace_back(delta->old_file.path);
    if (delta->new_file.path != nullptr) paths.emplace_back(delta->new_file.path);
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

}  // namespace tjr::source
