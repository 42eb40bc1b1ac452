#include "cli/findings_output.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "base/file.h"
#include "cli/output.h"
#include "cli/version.h"

namespace tjr::cli {
namespace po = boost::program_options;

void AddReportOptions(po::options_description* named, ReportOptions* options,
                      const char* format_flag) {
  if (format_flag != nullptr) {
    named->add_options()(format_flag, po::value(&options->stream_format),
                         "findings format: text (default), json, junit, sarif, github");
  }
  named->add_options()("report", po::value(&options->report_specs)->composing(),
                       "also write the findings as FORMAT=FILE (repeatable)");
}

bool FindingsOutput::Init(const ReportOptions& options) {
  options_ = options;
  std::optional<report::Format> stream = report::ParseFormat(options.stream_format);
  if (!stream) {
    ReportUsageError("unknown findings format '" + options.stream_format + "' (known: " +
                     report::FormatNames() + ")");
    return false;
  }
  stream_ = *stream;
  Observers observers;
  // Notes go to stderr when it carries nothing else or only text: with
  // `check --format json` the document is on stdout and stderr is free.
  if (options.verbose && (stream_ == report::Format::kText || options.stream_is_stdout)) {
    observers.note = [](const Diagnostic& note) { Report(note); };
  }
  if (options.verbose) {
    observers.ignored = [](const Diagnostic& diagnostic, const report::Finding& finding) {
      Note("ignored [" + finding.rule + "]: " + diagnostic.ToString());
    };
  }
  // Text streams, so a long run shows its findings as they are found.
  if (stream_ == report::Format::kText && !options.stream_is_stdout) {
    observers.kept = [](const Diagnostic& diagnostic) { Report(diagnostic); };
  }
  SetObservers(std::move(observers));
  for (const std::string& spec : options.report_specs) {
    std::size_t equals = spec.find('=');
    std::optional<report::Format> format =
        equals == std::string::npos ? std::nullopt : report::ParseFormat(spec.substr(0, equals));
    if (!format || equals + 1 >= spec.size()) {
      ReportUsageError("--report takes FORMAT=FILE with FORMAT one of " +
                       std::string(report::FormatNames()) + ", not '" + spec + "'");
      return false;
    }
    files_.emplace_back(*format, spec.substr(equals + 1));
  }
  return true;
}

std::vector<source::OutputFile> FindingsOutput::FilesThisRunWrites() const {
  std::vector<source::OutputFile> outputs = StdoutFile();
  for (const auto& [format, path] : files_) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
      outputs.push_back({static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                         "the --report file " + path, ""});
    }
  }
  return outputs;
}

std::vector<source::OutputFile> StdoutFile() {
  struct stat info {};
  if (::fstat(STDOUT_FILENO, &info) != 0 || !S_ISREG(info.st_mode)) return {};
  return {{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
           "tjrender's stdout (the file the shell redirected it into)", ""}};
}

bool FindingsOutput::WriteReportFiles() {
  report::WriteOptions write_options;
  write_options.tool_version = Version();
  bool ok = true;
  for (const auto& [format, path] : files_) {
    Status written = WriteFileAtomically(path, report::Write(format, results(), write_options));
    if (!written.ok()) {
      Report(AsInputError(written.take_error()));
      ok = false;
    }
  }
  return ok;
}

bool FindingsOutput::Finish() {
  report::WriteOptions write_options;
  write_options.tool_version = Version();
  if (stream_ == report::Format::kText && !options_.stream_is_stdout) {
    std::string line = report::SummaryLine(results()) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
  } else {
    std::string document = report::Write(stream_, results(), write_options);
    if (options_.stream_is_stdout) {
      WriteStdout(document);
    } else {
      std::fwrite(document.data(), 1, document.size(), stderr);
    }
  }
  if (options_.verbose && results().ignored > 0) {
    Note(std::to_string(results().ignored) + " finding(s) ignored by ignore rules");
  }
  return WriteReportFiles();
}

}  // namespace tjr::cli
