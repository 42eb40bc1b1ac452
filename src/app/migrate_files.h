#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "migrate/compare.h"
#include "migrate/rewrite.h"
#include "source/tree.h"

// The use case behind `tjrender migrate` and conformance's migrate target:
// every TrainJob of some files rewritten from Trainer v2.1's
// podTemplateOverrides into runtimePatches (or the PR #3199 preview shape),
// the files written back or handed over for a diff, and every TrainJob
// rendered as written at v2.1 and as migrated at v2.3, compared.
namespace tjr::app {

struct MigrateRequest {
  /// Files, folders or "-" (stdin), read from `tree` (null: the file
  /// system). A folder walk skips .tjrender.yaml and Helm templates.
  std::vector<std::string> paths;
  const source::Tree* tree = nullptr;
  migrate::RewriteOptions rewrite;
  migrate::CompareOptions compare;
  /// Rewrite the files (through symbolic links, atomically); refused for
  /// stdin and for a tree in memory.
  bool write = false;
  /// Also take the runtimes TrainJobs reference from this folder of the
  /// file system (`--repo DIR`); the files migrated are not read twice.
  std::string repo;
};

/// One file the rewrite changed.
struct MigratedText {
  std::string name;    ///< as the paths name it
  std::string before;  ///< the text as read
  std::string after;   ///< the text as migrated
  bool written = false;  ///< request.write and the file now holds `after`
};

/// What a run shows, on the calling thread, in order.
class MigrateSink {
 public:
  virtual ~MigrateSink() = default;
  /// Every diagnostic: unreadable inputs, fields with no place in the new
  /// shape, render errors at either target, files not written, notes.
  virtual void Problem(const Diagnostic& problem) = 0;
  /// Each changed file, in the order of the paths.
  virtual void Migrated(const MigratedText& file) = 0;
  /// Each TrainJob whose rendered objects differ, in the pipeline's order.
  virtual void Compared(const migrate::TrainJobComparison& trainjob) = 0;
};

struct MigrateOutcome {
  /// A usage error stopped the run before anything was read (reported).
  bool refused = false;
  /// An input could not be read, rewritten or written back.
  bool input_errors = false;
  /// The renders were compared (not for the preview shape, which no Trainer
  /// release reads).
  bool compared = false;
  /// Differences and refusals of the comparison (migrate::Comparison::Count).
  std::size_t differences = 0;
};

/// Runs the request. The TrainJobs that failed to migrate or already had
/// runtimePatches are not compared: a v2.1 rendering says nothing of them.
MigrateOutcome MigrateFiles(const MigrateRequest& request, MigrateSink& sink);

}  // namespace tjr::app
