#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/loader.h"
#include "source/tree.h"

namespace tjr::cli {

/// One side of `tjrender diff` (or the BASE of `check --since`): a folder on
/// disk, a Git revision, or a repository's working tree, with the manifest
/// paths to read from it.
struct RevisionSource {
  enum class Type { kDirectory, kGitRevision, kWorkingTree };

  Type type = Type::kDirectory;
  /// How reports name it: the folder or revision as given, "worktree".
  std::string label;
  /// The files, with the repository configuration hidden from walks.
  const source::Tree& tree() const { return *trees_.back(); }
  /// What to load from tree().
  std::vector<std::string> paths;

  /// Trees wrap one another; the last is the outermost.
  std::vector<std::unique_ptr<source::Tree>> trees_;
};

/// `spec` as the user wrote it: an existing folder is read from disk (its
/// files named "<folder>/<path>"); anything else is a revision of the Git
/// repository at or above the current directory, read from its object
/// database without a checkout (files named by repository path). An empty
/// `spec` is that repository's working tree, files named by repository path
/// as well. `paths` (repository- or folder-relative; empty: everything)
/// restricts what is read.
Result<std::unique_ptr<RevisionSource>> OpenRevision(const std::string& spec,
                                                     const std::vector<std::string>& paths);

/// Loads the manifests of `source`.
source::ManifestSet LoadRevision(const RevisionSource& source, const source::LoadOptions& options);

}  // namespace tjr::cli
