#include "conformance/suite.h"

#include <string>

namespace tjr::conformance {

Result<SuiteOutcome> RunSuite(const SuiteRequest& request, SuiteSink& sink) {
  Result<std::vector<std::filesystem::path>> cases = FindCases(request.roots);
  if (!cases.ok()) return cases.take_error();
  SuiteOutcome outcome;
  for (const std::filesystem::path& dir : *cases) {
    const CaseReport report = RunCase(dir, request.options);
    switch (report.outcome) {
      case Outcome::kPassed: ++outcome.passed; break;
      case Outcome::kFailed: ++outcome.failed; break;
      case Outcome::kUpdated: ++outcome.updated; break;
      case Outcome::kError: ++outcome.errors; break;
    }
    sink.CaseDone(dir, report);
  }
  return outcome;
}

report::JunitCase AsJunitCase(const CaseReport& report) {
  using Status = report::JunitCase::Status;
  report::JunitCase junit;
  junit.name = report.name;
  const std::size_t slash = report.name.find('/');
  junit.classname = "conformance" + (slash == std::string::npos ? "" : "." + report.name.substr(0, slash));
  switch (report.outcome) {
    case Outcome::kPassed: junit.status = Status::kPassed; break;
    case Outcome::kFailed: junit.status = Status::kFailed; break;
    case Outcome::kUpdated: junit.status = Status::kSkipped; break;
    case Outcome::kError: junit.status = Status::kError; break;
  }
  junit.message = report.summary;
  for (const Diagnostic& detail : report.details) junit.details += detail.ToString() + "\n";
  return junit;
}

Diagnostic AsFinding(const std::filesystem::path& dir, const CaseReport& report) {
  std::string message = report.summary;
  for (const Diagnostic& detail : report.details) message += "\n" + detail.ToString();
  Diagnostic finding = MakeError(Location{InternSourceName((dir / "case.yaml").string())}, "", message);
  finding.rule = report.outcome == Outcome::kFailed ? "conformance/failed" : "conformance/error";
  return finding;
}

}  // namespace tjr::conformance
