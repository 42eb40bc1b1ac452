#pragma once

#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "app/findings.h"
#include "report/format.h"
#include "source/disk_tree.h"

namespace tjr::cli {

/// Where a command's findings go: one format on a stream, and any number of
/// `--report FORMAT=FILE` files, all from the same findings.
struct ReportOptions {
  std::string stream_format = "text";
  /// Machine formats of `check --format` are the command's data: stdout.
  /// Otherwise (render's --findings-format, text) the stream is stderr.
  bool stream_is_stdout = false;
  std::vector<std::string> report_specs;  ///< "sarif=out.sarif"
  bool verbose = false;
};

/// Adds `--report FORMAT=FILE` (repeatable) and, when `format_flag` is set,
/// that flag ("format" or "findings-format") for the stream format.
void AddReportOptions(boost::program_options::options_description* named, ReportOptions* options,
                      const char* format_flag);

/// stdout, when the shell redirected it into a regular file (`> out.yaml`).
std::vector<source::OutputFile> StdoutFile();

/// A run's findings (app::Findings: ignore rules applied, kept for the
/// reports) shown as the command's options say: text on stderr streams as
/// findings arrive; other formats are written whole by Finish().
class FindingsOutput : public app::Findings {
 public:
  /// Checks the formats and file names; false after reporting a usage error.
  bool Init(const ReportOptions& options);
  /// The regular files this run writes that a walk of the inputs could
  /// reach: stdout when the shell redirected it into a file, and the
  /// --report files that exist already (after Init). Never inputs.
  std::vector<source::OutputFile> FilesThisRunWrites() const;
  /// Writes only the --report files; false when one could not be written.
  bool WriteReportFiles();
  /// Writes the stream format's document (or the text summary line) and
  /// every report file; false when a file could not be written (reported).
  bool Finish();

 private:
  ReportOptions options_;
  report::Format stream_ = report::Format::kText;
  std::vector<std::pair<report::Format, std::string>> files_;
};

using app::CollectIgnores;
using app::ObjectAt;
using app::RefOf;

}  // namespace tjr::cli
