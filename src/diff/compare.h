#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/objects.h"
#include "pipeline/pipeline.h"

// The rendered difference between two revisions of a manifest repository:
// which objects the Trainer controller would create, delete or change, and
// which TrainJobs the cluster would refuse.
namespace tjr::diff {

/// Which of the two revisions something belongs to.
enum class Side { kBase, kHead };

/// "base" or "head".
const char* SideName(Side side);

/// "Kind namespace/name", or "Kind name" for a cluster-scoped object.
std::string DisplayName(const doc::ObjectId& id);

/// What one revision rendered to.
struct RevisionRender {
  /// One result per rendered TrainJob, in the pipeline's (namespace, name)
  /// order.
  std::vector<pipeline::TrainJobResult> train_jobs;
  /// Findings that are not about one TrainJob: the loader's, and the
  /// pipeline summary's (refused runtimes, an unsupported target).
  Diagnostics diagnostics;
};

enum class ChangeType { kAdded, kRemoved, kChanged };

/// "added", "removed" or "changed".
const char* ChangeName(ChangeType type);

/// One rendered object that differs between the revisions.
struct ObjectChange {
  ChangeType type = ChangeType::kChanged;
  /// HEAD's identity (BASE's for a removed object).
  doc::ObjectId id;
  /// The TrainJob that renders it, "namespace/name".
  std::string train_job;
  /// The unified diff of the two objects as kubectl prints them (YAML),
  /// against /dev/null for an added or removed object.
  std::string diff;
};

/// An error or warning found while loading or rendering one revision.
struct RevisionFinding {
  Side side = Side::kHead;
  /// "namespace/name" of the TrainJob it is about; empty when it is about no
  /// one TrainJob (a file, a runtime).
  std::string train_job;
  Diagnostic diagnostic;
};

struct CompareOptions {
  /// Revision names for the `---`/`+++` lines: "<label>/<Kind>/<namespace>/<name>".
  std::string base_label = "base";
  std::string head_label = "head";
  /// Unchanged lines around each change.
  std::size_t context = 3;
  /// Objects are written and diffed on this many threads (0: one per core);
  /// the result does not depend on it.
  unsigned threads = 0;
};

/// What Compare found.
struct DiffResult {
  /// Sorted by kind, namespace, name, then API group.
  std::vector<ObjectChange> changes;
  /// Errors of BASE, then errors and warnings of HEAD, each in the
  /// pipeline's order (input files, runtimes, then TrainJobs); notes are
  /// left out.
  std::vector<RevisionFinding> findings;
  /// Objects rendered identically at both revisions.
  std::size_t unchanged = 0;
  /// TrainJobs rendered (or refused) at either revision, counted once.
  std::size_t train_jobs = 0;

  std::size_t Count(ChangeType type) const;
  /// TrainJobs ("namespace/name", sorted) with at least one error at `side`.
  std::vector<std::string> Refused(Side side) const;
  /// Errors (not warnings) at `side`.
  std::size_t ErrorCount(Side side) const;
  /// Objects differ (the exit code 1 of `tjrender diff`). HEAD's errors
  /// are not differences: they are `check`'s findings, shown beside.
  bool HasDifferences() const;
  /// No object differs only because nothing could be compared: HEAD has
  /// errors and no TrainJob rendered there without them (every one refused,
  /// or none left to render, as when every copy is a duplicate). A
  /// TrainJob HEAD refuses keeps BASE's objects out of the comparison, so
  /// "no differences" would claim what nobody looked at.
  bool NothingCompared() const;
  /// "1 added, 0 removed, 2 changed, 7 unchanged (4 TrainJobs compared)".
  std::string CountsText() const;
  /// "4 TrainJobs compared".
  std::string TrainJobsCompared() const;
};

/// Compares the objects two revisions rendered, matching them by API group,
/// kind, namespace and name (the version may change). A TrainJob with
/// errors renders nothing; so that a refused update does not look like a
/// deletion, the objects BASE rendered for a TrainJob that HEAD refuses are
/// left out of the comparison (the cluster would keep them). A TrainJob
/// BASE refused was never created, so what HEAD renders for it is added.
/// Objects compare as data first and as their YAML text when the data
/// differs (an int and a float that print alike are equal); the result does
/// not depend on how either side was computed (thread count).
DiffResult Compare(const RevisionRender& base, const RevisionRender& head,
                   const CompareOptions& options = {});

}  // namespace tjr::diff
