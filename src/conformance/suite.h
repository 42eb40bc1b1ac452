#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "base/diagnostic.h"
#include "conformance/runner.h"
#include "report/junit.h"

// The use case behind `tjrender conformance DIR...`: every case folder the
// roots name or hold, run in order, each report handed over as it is made.
// The CLI prints the reports and writes the JUnit and findings files.
namespace tjr::conformance {

struct SuiteRequest {
  /// Case folders, or folders holding them (see FindCases).
  std::vector<std::filesystem::path> roots;
  RunOptions options;
};

class SuiteSink {
 public:
  virtual ~SuiteSink() = default;
  /// One case, run; `dir` is its folder.
  virtual void CaseDone(const std::filesystem::path& dir, const CaseReport& report) = 0;
};

struct SuiteOutcome {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t updated = 0;
  std::size_t errors = 0;  ///< cases that could not run
};

/// Finds the cases and runs each; an error when a root holds none or cannot
/// be searched (nothing then runs).
Result<SuiteOutcome> RunSuite(const SuiteRequest& request, SuiteSink& sink);

/// The report as a JUnit test case: classname "conformance.<group>", an
/// updated case skipped.
report::JunitCase AsJunitCase(const CaseReport& report);

/// A failing case (failed or could not run) as a finding about its
/// case.yaml, rule conformance/failed or conformance/error.
Diagnostic AsFinding(const std::filesystem::path& dir, const CaseReport& report);

}  // namespace tjr::conformance
