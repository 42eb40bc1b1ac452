#pragma once
// Internal to the libgit2 adapter: the folders of one revision, each
// looked up once. Includes git2.h, so no other module may include it.

#include <git2.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "source/git_util.h"

namespace tjr::source {

/// Folders of a revision by normalised path. libgit2's object cache keeps
/// no tree over 4 KiB, so a folder of 10,000 files would otherwise be
/// parsed again for every file in it. Two memories, both linear in a
/// path's depth: the trees from the root down to the folder looked up
/// last (a walk down a listing, or up a file's parents, moves from there,
/// without recursion and without copying a path per level), and folders
/// by path, up to a bound on their paths' bytes (a hostile revision's
/// paths can be kilobytes each at every level: all of them at once grow
/// with the square of the depth), past which it starts again. Pointers
/// returned stay valid until the next call. Not thread-safe.
class FolderCache {
 public:
  FolderCache(git_repository* repo, const git_tree* root) : repo_(repo), root_(root) {}

  /// The tree of the folder at `path` ("" the root); nullptr when there is
  /// none.
  const git_tree* Folder(std::string_view path);
  /// The entry at a non-root `path`, owned by its folder's tree; nullptr
  /// when there is none.
  const git_tree_entry* Entry(std::string_view path);

 private:
  struct Step {
    std::size_t end;  // last_.substr(0, end) is this folder
    GitHandle<git_tree, git_tree_free> tree;
  };
  using OwnedTree = GitHandle<git_tree, git_tree_free>;

  void Remember(std::string_view path, const git_tree* tree);

  git_repository* repo_;
  const git_tree* root_;
  std::string last_;         // the folder looked up last
  std::vector<Step> chain_;  // the trees of its folders that exist, root excluded
  std::unordered_map<std::string, OwnedTree> folders_;
  std::size_t path_bytes_ = 0;
};

}  // namespace tjr::source
