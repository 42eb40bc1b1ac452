// `tjrender conformance`: the golden-file suite runner.
#include "cli/commands.h"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "base/file.h"
#include "cli/command.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "conformance/case.h"
#include "report/junit.h"
#include "conformance/runner.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender conformance DIR... [--update] [--junit FILE] [--report FORMAT=FILE]...\n\n"
    "Runs every case folder named by DIR (a folder with case.yaml) or found below it, and\n"
    "compares the output with the case's expected.yaml or expected-errors.txt.\n"
    "See conformance/README.md for the case layout.\n\n"
    "options:\n"
    "  --update      rewrite the expectations from the output (refused when CI=true);\n"
    "                review the changes like code before committing them\n"
    "  --junit FILE  also write a JUnit XML report to FILE\n"
    "  --report FORMAT=FILE  also write the failing cases as findings (json, junit, sarif,\n"
    "                github, text; rule conformance/failed or conformance/error), repeatable\n"
    "  -h, --help    show this help\n";

const char* OutcomeWord(conformance::Outcome outcome) {
  switch (outcome) {
    case conformance::Outcome::kPassed: return "PASS";
    case conformance::Outcome::kFailed: return "FAIL";
    case conformance::Outcome::kUpdated: return "UPDATED";
    case conformance::Outcome::kError: return "ERROR";
  }
  return "ERROR";
}

report::JunitCase ToJunit(const conformance::CaseReport& report) {
  using Status = report::JunitCase::Status;
  report::JunitCase junit;
  junit.name = report.name;
  std::size_t slash = report.name.find('/');
  junit.classname =
      "conformance" + (slash == std::string::npos ? "" : "." + report.name.substr(0, slash));
  switch (report.outcome) {
    case conformance::Outcome::kPassed: junit.status = Status::kPassed; break;
    case conformance::Outcome::kFailed: junit.status = Status::kFailed; break;
    case conformance::Outcome::kUpdated: junit.status = Status::kSkipped; break;
    case conformance::Outcome::kError: junit.status = Status::kError; break;
  }
  junit.message = report.summary;
  for (const Diagnostic& detail : report.details) junit.details += detail.ToString() + "\n";
  return junit;
}

// A failing case as a finding about its case.yaml, for --report.
Diagnostic CaseFinding(const std::filesystem::path& dir, const conformance::CaseReport& report) {
  std::string message = report.summary;
  for (const Diagnostic& detail : report.details) message += "\n" + detail.ToString();
  Diagnostic d = MakeError(Location{InternSourceName((dir / "case.yaml").string())}, "", message);
  d.rule = report.outcome == conformance::Outcome::kFailed ? "conformance/failed" : "conformance/error";
  return d;
}

bool RunningInCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace

int RunConformance(const std::vector<std::string>& args) {
  bool update = false;
  std::string junit_path;
  std::vector<std::string> dirs;
  ReportOptions report_options;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "update", po::bool_switch(&update), "rewrite the expectations")(
      "junit", po::value(&junit_path), "write a JUnit XML report");
  AddReportOptions(&named, &report_options, nullptr);
  if (auto exit_code = ParseCommandLine(args, named, &dirs, kUsage)) return *exit_code;
  if (dirs.empty()) {
    ReportUsageError("conformance needs at least one DIR (see tjrender conformance --help)");
    return kExitUsage;
  }
  if (update && RunningInCi()) {
    ReportUsageError("--update is refused when CI=true: expectations change only by a "
                     "reviewed commit");
    return kExitUsage;
  }

  std::vector<std::filesystem::path> roots(dirs.begin(), dirs.end());
  auto cases = conformance::FindCases(roots);
  if (!cases.ok()) {
    Report(cases.error());
    return kExitUsage;
  }
  // Only the files: stdout keeps its PASS/FAIL lines and stderr the details.
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;
  conformance::RunOptions options;
  options.update = update;
  std::size_t counts[4] = {0, 0, 0, 0};  // indexed by Outcome
  std::vector<report::JunitCase> junit_cases;
  for (const std::filesystem::path& dir : *cases) {
    conformance::CaseReport report = conformance::RunCase(dir, options);
    ++counts[static_cast<int>(report.outcome)];
    std::string line = std::string(OutcomeWord(report.outcome)) + " " + report.name;
    if (!report.summary.empty()) line += ": " + report.summary;
    WriteStdout(line + "\n");
    Report(report.details);
    if (!junit_path.empty()) junit_cases.push_back(ToJunit(report));
    findings.AddSubject(RefOf("tjrender.dev/conformance", "Case", "", report.name));
    if (report.outcome == conformance::Outcome::kFailed ||
        report.outcome == conformance::Outcome::kError) {
      findings.Record(CaseFinding(dir, report),
                      RefOf("tjrender.dev/conformance", "Case", "", report.name));
    }
  }
  const std::size_t passed = counts[static_cast<int>(conformance::Outcome::kPassed)];
  const std::size_t failed = counts[static_cast<int>(conformance::Outcome::kFailed)];
  const std::size_t updated = counts[static_cast<int>(conformance::Outcome::kUpdated)];
  const std::size_t errors = counts[static_cast<int>(conformance::Outcome::kError)];
  std::string summary = std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
  if (updated > 0) summary += ", " + std::to_string(updated) + " updated";
  if (errors > 0) summary += ", " + std::to_string(errors) + " could not run";
  WriteStdout(summary + "\n");

  if (!junit_path.empty()) {
    Status written =
        WriteFileAtomically(junit_path, report::WriteJunit("conformance", junit_cases));
    if (!written.ok()) {
      Report(written.error());
      return kExitUsage;
    }
  }
  if (!report_options.report_specs.empty() && !findings.WriteReportFiles()) return kExitUsage;
  if (errors > 0) return kExitUsage;
  return failed > 0 ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
