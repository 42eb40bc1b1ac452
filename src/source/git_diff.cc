// ChangedPaths: two trees compared folder by folder (git_tree_diff.h, or
// libgit2's tree-to-tree diff); against the working tree, BASE against the index
// (git_index_diff.h, or libgit2's tree-to-index diff) plus the index
// against the files (git_worktree.h).
#include <git2.h>
#include <sys/stat.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "source/git_tree.h"
#include "source/git_index_diff.h"
#include "source/git_index_file.h"
#include "source/git_tree_diff.h"
#include "source/git_util.h"
#include "source/git_worktree.h"

namespace tjr::source {
namespace {

// Appends the paths of `diff`'s deltas (both sides of each).
void AppendDeltaPaths(git_diff* diff, std::vector<std::string>* paths) {
  const std::size_t count = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff, i);
    if (delta->status == GIT_DELTA_UNMODIFIED) continue;
    if (delta->old_file.path != nullptr) paths->emplace_back(delta->old_file.path);
    if (delta->new_file.path != nullptr) paths->emplace_back(delta->new_file.path);
  }
}

// BASE against the index, and the index against the files: the paths
// either finds, unsorted. The index is read by ReadIndexFile and compared
// with BASE by TreeIndexChanges, which skips the folders its cache tree
// shows unchanged. libgit2's index and git_diff_tree_to_index only when the
// file is not one ReadIndexFile reads or TreeIndexChanges declines it.
Result<std::vector<std::string>> CompareWithWorktree(git_repository* repo, const std::string& repo_dir,
                                                     git_tree* base, const std::string& base_rev,
                                                     const std::vector<std::string>& specs,
                                                     git_diff_options* options, unsigned threads) {
  const std::string index_path = IndexFilePath(repo);
  Result<ReadIndex> read = index_path.empty() ? Result<ReadIndex>(MakeError(Location{}, "", "no index path"))
                                              : ReadIndexFile(index_path);
  std::vector<std::string> paths;
  if (read.ok()) {
    Status compared = TreeIndexChanges(repo, base, read->index, specs, &paths);
    // A tree deeper than Git reads is refused, not given to libgit2.
    if (!compared.ok() && compared.error().category == Category::kInput) return compared.take_error();
    if (!compared.ok()) {
      read = MakeError(Location{}, "", "declined");
      paths.clear();
    }
  }
  GitHandle<git_index, git_index_free> index;
  std::vector<IndexEntry> libgit2_entries;
  struct timespec index_mtime {};
  if (read.ok()) {
    index_mtime.tv_sec = static_cast<time_t>(read->mtime_seconds);
    index_mtime.tv_nsec = static_cast<long>(read->mtime_nanoseconds);
  } else {
    git_index* raw_index = nullptr;
    if (git_repository_index(&raw_index, repo) != 0) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "cannot read the index: " + LastGitError()));
    }
    index.reset(raw_index);
    libgit2_entries = EntriesOf(index.get());
    struct stat info {};
    const char* path = git_index_path(index.get());
    if (path != nullptr && ::stat(path, &info) == 0) index_mtime = info.st_mtim;
    options->flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
    git_diff* diff = nullptr;
    if (git_diff_tree_to_index(&diff, repo, base, index.get(), options) != 0) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "cannot compare " + base_rev + " with the working tree: " +
                                        LastGitError()));
    }
    GitHandle<git_diff, git_diff_free> owned(diff);
    AppendDeltaPaths(diff, &paths);
  }
  Result<std::vector<std::string>> worktree =
      WorktreeChanges(repo, read.ok() ? read->index.entries : libgit2_entries, index_mtime, specs, threads);
  if (!worktree.ok()) return worktree.take_error();
  paths.insert(paths.end(), std::make_move_iterator(worktree->begin()), std::make_move_iterator(worktree->end()));
  return paths;
}

}  // namespace

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

  // git_diff_options_init, not GIT_DIFF_OPTIONS_INIT: the macro leaves
  // fields to zero-initialization, which clang's -Wextra reports.
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  // Paths are literal: a folder named "a*" must not match "ab".
  options.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  options.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
  options.pathspec.strings = spec_strings.data();
  options.pathspec.count = spec_strings.size();
  options.context_lines = 0;

  std::vector<std::string> paths;
  if (head_rev.empty()) {
    if (git_repository_is_bare(repo->get())) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "a bare repository has no working tree to compare with"));
    }
    Result<std::vector<std::string>> worktree =
        CompareWithWorktree(repo->get(), repo_dir, base->tree.get(), base_rev, specs, &options, threads);
    if (!worktree.ok()) return worktree.take_error();
    paths = std::move(*worktree);
  } else {
    Result<PeeledTree> head = PeelToTree(repo->get(), head_rev);
    if (!head.ok()) return head.take_error();
    Status compared = TreeTreeChanges(repo->get(), base->tree.get(), head->tree.get(), specs, &paths);
    if (compared.ok()) {
      std::sort(paths.begin(), paths.end());
      paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
      return paths;
    }
    if (compared.error().category == Category::kInput) return compared.take_error();  // deeper than Git reads
    paths.clear();  // libgit2 says what could not be read
    options.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
    git_diff* diff = nullptr;
    if (git_diff_tree_to_tree(&diff, repo->get(), base->tree.get(), head->tree.get(), &options) !=
        0) {
      return AsInputError(MakeError(Location{InternSourceName(repo_dir)}, "",
                                    "cannot compare " + base_rev + " with " + head_rev + ": " +
                                        LastGitError()));
    }
    GitHandle<git_diff, git_diff_free> owned(diff);
    AppendDeltaPaths(diff, &paths);
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

}  // namespace tjr::source
