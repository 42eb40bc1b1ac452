#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/findings.h"
#include "base/diagnostic.h"
#include "diff/compare.h"
#include "source/disk_tree.h"

// The use case behind `tjrender diff BASE [HEAD]`: both sides read (two
// Git revisions of one repository, or two folders), each rendered for its
// own target, HEAD's TrainJobs validated as updates of BASE's, and the
// rendered objects compared. The CLI formats the result.
namespace tjr::app {

struct DiffRequest {
  std::string base;  ///< a Git revision, or a folder
  /// A Git revision or a folder; empty: the working tree (or "." for folders).
  std::string head;
  std::vector<std::string> paths;  ///< Git: only these repository folders or files
  bool all = false;                ///< Git: every TrainJob, not only the affected ones
  std::string repo;                ///< Git: the repository (default: the one holding ".")
  std::size_t context = 3;         ///< lines of context of the unified diffs
  /// Both sides render for this target (any spelling CanonicalTarget
  /// knows); empty: each side's `.tjrender.yaml`, else pipeline::kDefaultTarget.
  std::string target;
  std::string default_namespace;  ///< as RenderRequest::default_namespace
  bool strict = false;
  bool admission = true;  ///< as RenderRequest::admission
  unsigned threads = 0;
  /// Files this run writes (stdout redirected into a file, --report files):
  /// never read as inputs of the working tree or a folder.
  std::vector<source::OutputFile> outputs = {};
};

/// What a diff shows besides its findings and its result.
class DiffSink {
 public:
  virtual ~DiffSink() = default;
  /// A usage error or an input the run cannot use (the run then stops).
  virtual void Problem(const Diagnostic& problem) = 0;
  /// What --verbose shows.
  virtual void Note(std::string_view text) = 0;
  /// What is shown without --verbose too (RenderSink::Notice).
  virtual void Notice(std::string_view text) { Note(text); }
};

struct DiffOutcome {
  /// False when a problem stopped it before comparing (reported).
  bool compared = false;
  diff::DiffResult result;
  std::string base_label;  ///< "main", "old" (a folder), as the result names the sides
  std::string head_label;  ///< "worktree" when HEAD is the working tree
};

/// Runs the request. `findings` gets BASE's errors (its warnings are about
/// the past) and then HEAD's findings, HEAD's TrainJobs as the subjects.
DiffOutcome DiffRevisions(const DiffRequest& request, Findings& findings, DiffSink& sink);

}  // namespace tjr::app
