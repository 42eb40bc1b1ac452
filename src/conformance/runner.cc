#include "conformance/runner.h"

#include <algorithm>
#include <system_error>

#include "base/file.h"
#include "conformance/compare.h"
#include "yaml/writer.h"

namespace tjr::conformance {
namespace fs = std::filesystem;
namespace {

Diagnostic Detail(const fs::path& file, std::string message) {
  return MakeError(Location{InternSourceName(file.string())}, "", std::move(message));
}

// Target diagnostics name input files relative to the case ("input/x.yaml"),
// which keeps expected-errors.txt independent of where the suite runs; on
// stderr they are named from the working directory instead.
Diagnostic FromWorkingDirectory(const Case& c, Diagnostic diagnostic) {
  const std::string* file = diagnostic.location.file;
  if (file != nullptr && file->starts_with(std::string(kInputDir) + "/")) {
    diagnostic.location.file = InternSourceName((c.dir / *file).string());
  }
  return diagnostic;
}

void AddTargetDiagnostics(const Case& c, const Diagnostics& diagnostics, CaseReport* report) {
  for (const Diagnostic& diagnostic : diagnostics) {
    report->details.push_back(FromWorkingDirectory(c, diagnostic));
  }
}

CaseReport Fail(const Case& c, std::string summary) {
  CaseReport report;
  report.name = c.name;
  report.outcome = Outcome::kFailed;
  report.summary = std::move(summary);
  return report;
}

CaseReport CheckObjects(const Case& c, const TargetOutput& output) {
  const fs::path expected_file = c.dir / kExpectedObjectsFile;
  if (HasErrors(output.diagnostics)) {
    CaseReport report = Fail(c, "expected objects, but the target reported errors");
    AddTargetDiagnostics(c, output.diagnostics, &report);
    return report;
  }
  std::string differences = CompareObjects(c.expected_objects, output.objects);
  if (differences.empty()) return {c.name, Outcome::kPassed, "", {}};
  CaseReport report = Fail(c, "the output differs from expected.yaml");
  report.details.push_back(Detail(expected_file, "the output differs:\n" + differences));
  return report;
}

CaseReport CheckErrors(const Case& c, const TargetOutput& output) {
  const fs::path expected_file = c.dir / kExpectedErrorsFile;
  if (output.diagnostics.empty()) {
    CaseReport report = Fail(c, "expected errors, but the target reported none");
    std::string objects = yaml::WriteStream(output.objects);
    report.details.push_back(
        Detail(expected_file, "expected errors, but the target produced:\n" + objects));
    return report;
  }
  std::vector<std::string> missing = MissingErrors(c.expected_errors, output.diagnostics);
  std::vector<std::string> unlisted = UnlistedErrors(c.expected_errors, output.diagnostics);
  // A case of errors is a case where nothing renders: an object beside the
  // expected errors (another TrainJob's, say) fails it. (A case that lists
  // only warnings says nothing about the objects.)
  const bool reported_error = std::any_of(output.diagnostics.begin(), output.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::kError; });
  if (missing.empty() && unlisted.empty() && reported_error && !output.objects.empty()) {
    CaseReport report = Fail(c, std::to_string(output.objects.size()) + " object(s) rendered beside the errors");
    report.details.push_back(Detail(expected_file, "expected errors and nothing rendered, but the target produced:\n" +
                                                       yaml::WriteStream(output.objects)));
    return report;
  }
  if (missing.empty() && unlisted.empty()) return {c.name, Outcome::kPassed, "", {}};
  CaseReport report = Fail(c, !missing.empty() ? std::to_string(missing.size()) + " expected error(s) not reported"
                                                : std::to_string(unlisted.size()) + " reported error(s) not listed");
  std::string message;
  if (!missing.empty()) message += "not reported:";
  for (const std::string& line : missing) message += "\n  " + line;
  if (!unlisted.empty()) message += std::string(message.empty() ? "" : "\n") + "reported but not listed:";
  for (const std::string& line : unlisted) message += "\n  " + line;
  message += "\nthe target reported:";
  report.details.push_back(Detail(expected_file, message));
  AddTargetDiagnostics(c, output.diagnostics, &report);
  return report;
}

CaseReport Update(const Case& c, const TargetOutput& output) {
  const bool errors = HasErrors(output.diagnostics);
  const fs::path write = c.dir / (errors ? kExpectedErrorsFile : kExpectedObjectsFile);
  const fs::path remove = c.dir / (errors ? kExpectedObjectsFile : kExpectedErrorsFile);
  std::string bytes;
  if (errors) {
    for (const Diagnostic& diagnostic : output.diagnostics) bytes += diagnostic.ToString() + "\n";
  } else {
    bytes = yaml::WriteStream(SortedById(output.objects));
  }
  std::error_code error;
  auto existing = ReadFile(write.string());
  const bool stale_other = fs::exists(remove, error);
  if (existing.ok() && *existing == bytes && !stale_other) {
    return {c.name, Outcome::kPassed, "", {}};
  }
  CaseReport report{c.name, Outcome::kUpdated, "wrote " + write.filename().string(), {}};
  Status written = WriteFileAtomically(write.string(), bytes);
  if (!written.ok()) {
    report.outcome = Outcome::kError;
    report.summary = "cannot write " + write.filename().string();
    report.details.push_back(written.take_error());
    return report;
  }
  if (stale_other && !fs::remove(remove, error)) {
    report.outcome = Outcome::kError;
    report.summary = "cannot remove " + remove.filename().string();
    report.details.push_back(AsInputError(Detail(remove, "cannot remove: " + error.message())));
  }
  return report;
}

}  // namespace

CaseReport RunLoadedCase(const Case& c, const Target& target, const RunOptions& options) {
  TargetOutput output;
  if (!c.input_errors.empty()) {
    output.diagnostics = c.input_errors;
  } else {
    auto produced = target.run(c.inputs, c.spec.command);
    if (!produced.ok()) {
      CaseReport report{c.name, Outcome::kError, "the case cannot be run", {}};
      report.details.push_back(FromWorkingDirectory(c, produced.take_error()));
      return report;
    }
    output = std::move(produced).value();
  }
  if (options.update) return Update(c, output);
  switch (c.expectation) {
    case Expectation::kObjects: return CheckObjects(c, output);
    case Expectation::kErrors: return CheckErrors(c, output);
    case Expectation::kNone: break;
  }
  CaseReport report{c.name, Outcome::kError, "the case has no expectation", {}};
  report.details.push_back(AsInputError(
      Detail(c.dir, "no expected.yaml or expected-errors.txt; write one, or make one with "
                    "--update and review it")));
  return report;
}

CaseReport RunCase(const fs::path& dir, const RunOptions& options) {
  auto loaded = LoadCase(dir);
  if (!loaded.ok()) {
    CaseReport report{dir.string(), Outcome::kError, "the case cannot be loaded", {}};
    report.details.push_back(loaded.take_error());
    return report;
  }
  const Target* target = FindTarget(loaded->spec.target);
  if (target == nullptr) {
    std::string known;
    for (const Target& t : Targets()) known += (known.empty() ? "" : ", ") + std::string(t.name);
    CaseReport report{loaded->name, Outcome::kError, "unknown target", {}};
    report.details.push_back(AsInputError(Detail(
        dir / kCaseFile, "unknown target '" + loaded->spec.target + "' (known: " + known + ")")));
    return report;
  }
  return RunLoadedCase(*loaded, *target, options);
}

}  // namespace tjr::conformance
