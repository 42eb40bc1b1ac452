#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/tree.h"

// The one adapter to libgit2: a revision of a Git repository read straight
// from its object database (no checkout, bare repositories included), and
// the paths that differ between two revisions or a revision and the working
// tree. No libgit2 type leaves git_*.cc.
namespace tjr::source {

/// Where a repository lives.
struct GitRepository {
  /// The repository's .git folder (the repository itself when bare).
  std::string git_dir;
  /// The working tree, without a trailing '/'; empty for a bare repository.
  std::string workdir;
  /// The path it was found from: what OpenGitRevision and ChangedPaths take
  /// to open it again (git's environment, relative GIT_DIR included, leads
  /// from there to this same repository).
  std::string opened_from;
};

/// The repository containing `path` (searched upwards as git does).
Result<GitRepository> FindGitRepository(const std::string& path);

/// One revision's tree. Paths are relative to the repository root ("." or ""
/// is the root; "a/./b" and "a/../b" are normalised; a path leaving the root
/// is an error). Blobs are read as stored: a symbolic link is never
/// followed (Stat reports it as a warning naming its target), a submodule is
/// never entered (Stat reports it as a note). Resolve gives "/" + the
/// normalised path. Safe to use from several threads.
class GitTree final : public Tree {
 public:
  struct Impl;
  explicit GitTree(std::unique_ptr<Impl> impl);
  ~GitTree() override;

  Result<EntryType> Stat(const std::string& path) const override;
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override;
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override;

  /// The hex object id of the regular file (blob) at `path`, or "" when
  /// `path` is not one. Equal ids mean equal bytes.
  std::string BlobId(const std::string& path) const;
  /// The hex id of the commit (or tree, for a tree-ish) the revision names.
  const std::string& revision_id() const;

 private:
  std::unique_ptr<Impl> impl_;
};

/// The revision name of what is committed plus what is staged: the tree
/// `git write-tree` would write from the index (a pre-commit hook checks
/// what the commit will hold, not untracked or unstaged work in progress).
/// ":" is no name `git rev-parse` takes (":path" names a staged blob).
inline constexpr char kStagedRevision[] = ":";

/// The tree of `rev` (anything `git rev-parse` takes: a branch, a tag, a
/// SHA, `HEAD~2`, `main:sub/dir`; or kStagedRevision) in the repository at
/// or above `repo_dir`.
Result<std::unique_ptr<GitTree>> OpenGitRevision(const std::string& repo_dir,
                                                 const std::string& rev);

/// The same as a plain Tree.
Result<std::unique_ptr<Tree>> OpenGitTree(const std::string& repo_dir, const std::string& rev);

/// The repository-relative paths of the files that differ between
/// `base_rev` and `head_rev` (added, deleted, modified, type changes; both
/// sides of a rename), sorted and unique. An empty `head_rev` compares with
/// the working tree as `git diff BASE` sees it plus untracked and ignored
/// files (the working-tree source reads those too). Only paths under one of
/// `pathspec` (repository-relative folders or files; empty: everything)
/// are compared. Submodules are left out. The working-tree comparison uses
/// `threads` threads (0: one per core).
Result<std::vector<std::string>> ChangedPaths(const std::string& repo_dir,
                                              const std::string& base_rev,
                                              const std::string& head_rev,
                                              const std::vector<std::string>& pathspec = {},
                                              unsigned threads = 0);

}  // namespace tjr::source
