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
#include "conformance/suite.h"
#include "report/junit.h"

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

// Prints each case's line to stdout and its details to stderr as it ends,
// and keeps what the JUnit and findings files need.
class CasePrinter final : public conformance::SuiteSink {
 public:
  CasePrinter(FindingsOutput& findings, bool junit) : findings_(findings), junit_(junit) {}

  void CaseDone(const std::filesystem::path& dir, const conformance::CaseReport& report) override {
    std::string line = std::string(OutcomeWord(report.outcome)) + " " + report.name;
    if (!report.summary.empty()) line += ": " + report.summary;
    WriteStdout(line + "\n");
    for (const Diagnostic& detail : report.details) ReportBlock(detail);
    if (junit_) junit_cases.push_back(conformance::AsJunitCase(report));
    const report::ObjectRef subject = RefOf("tjrender.dev/conformance", "Case", "", report.name);
    findings_.AddSubject(subject);
    if (report.outcome == conformance::Outcome::kFailed || report.outcome == conformance::Outcome::kError) {
      findings_.Record(conformance::AsFinding(dir, report), subject);
    }
  }

  std::vector<report::JunitCase> junit_cases;

 private:
  FindingsOutput& findings_;
  bool junit_;
};

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

  // Only the files: stdout keeps its PASS/FAIL lines and stderr the details.
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;
  conformance::SuiteRequest request;
  request.roots.assign(dirs.begin(), dirs.end());
  request.options.update = update;
  CasePrinter printer(findings, !junit_path.empty());
  Result<conformance::SuiteOutcome> outcome = conformance::RunSuite(request, printer);
  if (!outcome.ok()) {
    Report(outcome.error());
    return kExitUsage;
  }
  std::string summary = std::to_string(outcome->passed) + " passed, " + std::to_string(outcome->failed) + " failed";
  if (outcome->updated > 0) summary += ", " + std::to_string(outcome->updated) + " updated";
  if (outcome->errors > 0) summary += ", " + std::to_string(outcome->errors) + " could not run";
  WriteStdout(summary + "\n");

  if (!junit_path.empty()) {
    Status written =
        WriteFileAtomically(junit_path, report::WriteJunit("conformance", printer.junit_cases));
    if (!written.ok()) {
      Report(written.error());
      return kExitUsage;
    }
  }
  if (!report_options.report_specs.empty() && !findings.WriteReportFiles()) return kExitUsage;
  if (outcome->errors > 0) return kExitUsage;
  return outcome->failed > 0 ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
