#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "app/render_config.h"
#include "source/disk_tree.h"
#include "source/filtered_tree.h"
#include "source/git_tree.h"

namespace tjr::app {

/// Where `render` and `check` read manifests from.
struct SourceRequest {
  std::vector<std::string> paths;  ///< as given on the command line
  std::string rev;                 ///< --rev: a Git revision instead of the working tree
  std::string since;               ///< --since: the base revision of the affected set
  std::string repo;                ///< --repo: where to look for the repository
  /// Reads PATHs from this tree instead of the file system (a conformance
  /// case's files, in memory); it must outlive the run. Not with rev or
  /// since.
  const source::Tree* tree = nullptr;
  /// Files this run writes (stdout redirected into a file, --report files):
  /// never read as inputs (see source::DiskTree).
  std::vector<source::OutputFile> outputs = {};
};

/// An opened source: the tree the loader reads (configuration hidden,
/// include/exclude applied), the paths to read in it, the configuration,
/// and for Git sources the repository and revisions.
struct RenderSource {
  std::vector<std::string> paths;
  RepoConfig config;
  std::string config_path;
  /// Set when reading through Git (--rev or --since): the repository, and
  /// the trees of --rev (null for the working tree) and --since.
  std::optional<source::GitRepository> repo;
  std::unique_ptr<source::GitTree> head_git;
  std::unique_ptr<source::GitTree> base_git;
  /// Whether .tjrender.yaml has the same bytes at --since as in the source
  /// (otherwise every TrainJob is affected).
  bool config_unchanged_since = true;

  const source::FilteredTree& tree() const { return *filtered_; }
  const source::FilteredTree& base_tree() const { return *base_filtered_; }

  // The owned trees behind tree() and base_tree().
  std::unique_ptr<source::DiskTree> disk_;
  std::unique_ptr<source::Tree> rooted_;
  std::unique_ptr<source::FilteredTree> filtered_;
  std::unique_ptr<source::FilteredTree> base_filtered_;
};

/// Opens the source. Without --rev and --since, PATHs are read from the
/// file system as given. With either, the repository is the one holding
/// --repo (or the current folder), and PATHs (default ".") are repository
/// paths: relative to the current folder when it lies in the working tree,
/// as git takes them, otherwise to the repository root. Errors are usage or
/// input errors.
Result<std::unique_ptr<RenderSource>> OpenRenderSource(const SourceRequest& request);

}  // namespace tjr::app
