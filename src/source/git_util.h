#pragma once
// Internal to the libgit2 adapter (git_*.cc): owning handles, errors, and
// opening a repository and a revision. Includes git2.h, so no other module
// may include it.

#include <git2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// An owned libgit2 object freed by `Free`.
template <class T, void (*Free)(T*)>
struct GitFree {
  void operator()(T* object) const { Free(object); }
};
template <class T, void (*Free)(T*)>
using GitHandle = std::unique_ptr<T, GitFree<T, Free>>;

/// The message of the last libgit2 error on this thread.
std::string LastGitError();

/// An object id as 40 hex digits.
std::string OidHex(const git_oid* oid);

/// The repository git would read when run in `path` (git_open.cc): with
/// GIT_DIR that one, no discovery, its work tree GIT_WORK_TREE, else
/// core.worktree, else none when core.bare, else `path`; without it the one
/// at or above `path` (GIT_CEILING_DIRECTORIES and, unless
/// GIT_DISCOVERY_ACROSS_FILESYSTEM, the file system bound the search),
/// refused when another user owns it and no safe.directory of the system,
/// global or command-line configuration allows it, its work tree replaced
/// by GIT_WORK_TREE. Then GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY and
/// GIT_ALTERNATE_OBJECT_DIRECTORIES (relative ones from the top of the work
/// tree). GIT_COMMON_DIR is refused. Relative GIT_DIR and GIT_WORK_TREE are
/// taken from `path`, as with `git -C path`, so opening with the same
/// `path` again opens the same repository. Initialises libgit2 once.
Result<GitHandle<git_repository, git_repository_free>> OpenRepository(const std::string& path);

/// The index file of `repo` as OpenRepository opened it (GIT_INDEX_FILE,
/// else the repository's); "" when libgit2 does not say.
std::string IndexFilePath(git_repository* repo);

/// The object folder of `repo` (GIT_OBJECT_DIRECTORY, else the common
/// folder's objects/).
std::string ObjectsPath(git_repository* repo);

/// A new object database on `objects_path` (its info/alternates followed)
/// plus GIT_ALTERNATE_OBJECT_DIRECTORIES, for a thread of its own.
Result<GitHandle<git_odb, git_odb_free>> OpenObjectDatabase(git_repository* repo, const std::string& objects_path);

struct PeeledTree {
  GitHandle<git_tree, git_tree_free> tree;
  std::string id;  ///< the commit's id, or the tree's for a tree-ish
};

/// The tree `rev` names.
Result<PeeledTree> PeelToTree(git_repository* repo, const std::string& rev);

/// One entry of a tree, with its mode as stored.
struct TreeItem {
  const git_tree_entry* entry;
  std::string_view name;
  std::uint32_t mode;
  bool folder() const { return (mode & 0170000) == 0040000; }
  bool submodule() const { return (mode & 0170000) == 0160000; }
};

/// Git's tree order: names by bytes, a folder's as if it ended with '/'.
/// Negative, zero or positive as strcmp.
int TreeOrder(const TreeItem& a, const TreeItem& b);

/// The entries of `tree` (none for null) in TreeOrder, the order Git
/// writes them in (sorted again only when a tree is not).
std::vector<TreeItem> TreeItemsInOrder(const git_tree* tree);

/// A repository path in normal form: "" for the root, no "." or ".."
/// components, no leading or trailing '/'. Absolute paths and paths that
/// climb above the root are errors.
Result<std::string> NormalizeRepoPath(const std::string& path);

}  // namespace tjr::source
