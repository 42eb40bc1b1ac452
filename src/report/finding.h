#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/diagnostic.h"

// Findings as every report format sees them: a Diagnostic with its rule id
// and, when known, the object it is about.
namespace tjr::report {

/// The Kubernetes object a finding is about (a TrainJob, a runtime); empty
/// kind when the finding is about a file or the run.
struct ObjectRef {
  std::string api_version;
  std::string kind;
  std::string namespace_;
  std::string name;

  bool known() const { return !kind.empty(); }
  /// "Kind namespace/name" or "Kind name" (cluster-scoped).
  std::string Display() const;
  /// "apiVersion/Kind/namespace/name", the key ignore rules use.
  std::string Key() const;
  friend bool operator==(const ObjectRef&, const ObjectRef&) = default;
};

/// One finding of a run.
struct Finding {
  Diagnostic diagnostic;
  std::string rule;  ///< RuleId(diagnostic)
  ObjectRef object;
};

/// A finding with its rule id filled in.
Finding MakeFinding(Diagnostic diagnostic, ObjectRef object = {});

/// Everything a report describes: the findings in the order found, the
/// objects that were checked (JUnit lists the clean ones too) and how many
/// objects the run rendered.
struct Results {
  std::vector<Finding> findings;
  std::vector<ObjectRef> subjects;
  std::size_t objects_rendered = 0;
  /// Objects validated: TrainJobs, runtimes, Flyte tasks.
  std::size_t objects_checked = 0;
  /// Files that held nothing to check (Helm templates, workflows, values).
  std::size_t files_skipped = 0;
  std::size_t ignored = 0;  ///< findings dropped by ignore rules
};

struct Counts {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t notes = 0;
};
Counts Count(const std::vector<Finding>& findings);

/// "N objects rendered, N checked, N files skipped, N errors, N warnings":
/// the last line of text output.
std::string SummaryLine(const Results& run);

}  // namespace tjr::report
