#pragma once

#include <functional>
#include <string>
#include <vector>

#include "batch/inventory.h"
#include "batch/inventory_cache.h"
#include "source/filtered_tree.h"
#include "source/git_tree.h"
#include "source/loader.h"

namespace tjr::batch {

/// Two states of one repository and what differs between them.
struct SinceSources {
  /// The base revision as directory walks see it, and the same revision
  /// for blob ids.
  const source::FilteredTree& base;
  const source::GitTree& base_git;
  /// The revision (or working tree) being rendered.
  const source::FilteredTree& head;
  /// The same as a Git revision, or nullptr for the working tree.
  const source::GitTree* head_git = nullptr;
  /// The repository paths (folders or files) being rendered.
  std::vector<std::string> paths;
  /// Computes the repository paths whose bytes differ between base and head
  /// (source::ChangedPaths). FindAffected calls it on another thread, then
  /// reads the changed files there, while it reads the base inventory: on a
  /// large repository the two take about as long.
  std::function<Result<std::vector<std::string>>()> changed_paths;
};

/// What `--since BASE` renders.
struct AffectedSet {
  /// The affected TrainJobs and the runtimes they reference (plus changed
  /// runtimes), as loaded from head, with the diagnostics of the files read.
  source::ManifestSet manifests;
  /// The affected TrainJobs in pipeline order: those of changed files, and
  /// those whose runtime changed, appeared or disappeared.
  std::vector<Entry> affected;
  /// TrainJobs of changed files at base that head no longer has.
  std::vector<Entry> removed;
  /// RuntimeKeys of the runtimes that differ (as data) between base and head.
  std::vector<std::string> changed_runtimes;
  /// TrainJobs in the whole head inventory.
  std::size_t total_trainjobs = 0;
  /// Files parsed in full (the rest came from the cache).
  std::size_t files_parsed = 0;
  /// What SinceSources::changed_paths returned.
  std::vector<std::string> changed;
};

/// The affected set, exactly: a TrainJob's own file is its only input
/// besides its runtime, and its runtimeRef can change only with that file.
/// So only changed files are parsed (on both sides), plus, for unchanged
/// files, their inventory entries (from `cache` by blob id, parsed once on a
/// miss) and the files of affected TrainJobs and needed runtimes.
/// `cache` may be null. Fails only when `changed_paths` does. Uses a second
/// thread unless `options.threads` is 1 (`head` and `base` are then read
/// from both).
Result<AffectedSet> FindAffected(const SinceSources& sources, const source::LoadOptions& options,
                                 InventoryCache* cache);

/// Records the entries of every file of `set` read from `tree` (files with
/// errors left out), so a later `--since` finds them by blob id.
void CacheEntries(const source::ManifestSet& set, const source::GitTree& tree,
                  InventoryCache* cache);

}  // namespace tjr::batch
