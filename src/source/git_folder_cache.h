#pragma once
// Internal to the libgit2 adapter: the folders of one revision, each
// looked up once. Includes git2.h, so no other module may include it.

#include <git2.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include "source/git_util.h"

namespace tjr::source {

/// Folders of a revision by normalised path. libgit2's object cache keeps
/// no tree over 4 KiB, so a folder of 10,000 files would otherwise be
/// parsed again for every file in it. A lookup walks down from the
/// nearest folder cached, without recursion; the cached paths' bytes are
/// bounded (a hostile revision's paths can be kilobytes each at every
/// level: all of them at once grow with the square of the depth), past
/// which the cache starts again. Pointers returned stay valid until the
/// next call. Not thread-safe.
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
  git_repository* repo_;
  const git_tree* root_;
  std::unordered_map<std::string, GitHandle<git_tree, git_tree_free>> folders_;
  std::size_t path_bytes_ = 0;
};

}  // namespace tjr::source
