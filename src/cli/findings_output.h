#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "base/diagnostic.h"
#include "pipeline/pipeline.h"
#include "report/finding.h"
#include "report/format.h"
#include "report/ignore.h"
#include "source/loader.h"

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

/// Collects a run's findings, drops ignored ones, and writes every report.
/// Text on stderr streams as findings arrive; other formats are written
/// whole by Finish().
class FindingsOutput {
 public:
  /// Checks the formats and file names; false after reporting a usage error.
  bool Init(const ReportOptions& options);
  void SetIgnores(report::Ignores ignores) { ignores_ = std::move(ignores); }
  /// Where findings are shown: every finding's location goes through `map`
  /// first (the KRM function maps lines of its ResourceList to the items'
  /// files). The objects findings are about are found before, from the
  /// locations as read.
  void SetLocationMap(std::function<Location(const Location&)> map) { location_map_ = std::move(map); }
  /// Whether the ignore rules silence `diagnostic` about `object` (only
  /// reads the rules: safe from worker threads).
  bool Ignores(const report::ObjectRef& object, const Diagnostic& diagnostic) const {
    return report::Ignored(ignores_, report::MakeFinding(diagnostic, object));
  }

  /// One finding (notes only with --verbose, and only in text).
  void Add(const Diagnostic& diagnostic, const report::ObjectRef& object = {});
  void Add(const Diagnostics& diagnostics, const report::ObjectRef& object = {});
  /// Keeps a finding for the report files without printing it (a command
  /// that prints its own findings, such as conformance).
  void Record(const Diagnostic& diagnostic, const report::ObjectRef& object = {});
  /// Writes only the --report files; false when one could not be written.
  bool WriteReportFiles();
  /// An object that was checked (JUnit lists clean ones too).
  void AddSubject(report::ObjectRef subject) { results_.subjects.push_back(std::move(subject)); }
  void AddRendered(std::size_t objects) { results_.objects_rendered += objects; }
  /// Objects validated besides the TrainJobs AddResult counts (runtimes).
  void AddChecked(std::size_t objects) { results_.objects_checked += objects; }

  /// Before a pipeline run over `manifests`: takes the loader's findings and
  /// its count of skipped files,
  /// the ignore rules (`global` and the manifests' annotations) and makes
  /// `options` skip the warnings they silence.
  void BeginRun(const source::ManifestSet& manifests, const std::vector<report::IgnoreRule>& global,
                pipeline::PipelineOptions* options);
  /// One TrainJob's result: a subject, its objects counted, its findings;
  /// returns its ObjectRef.
  report::ObjectRef AddResult(const pipeline::TrainJobResult& result);

  /// The findings kept so far (after ignore rules).
  const std::vector<report::Finding>& findings() const { return results_.findings; }
  bool has_errors() const { return errors_ > 0; }
  bool has_input_errors() const { return input_errors_ > 0; }

  /// Writes the stream format's document (or the text summary line) and
  /// every report file; false when a file could not be written (reported).
  bool Finish();

 private:
  ReportOptions options_;
  report::Format stream_ = report::Format::kText;
  std::vector<std::pair<report::Format, std::string>> files_;
  report::Ignores ignores_;
  std::function<Location(const Location&)> location_map_;
  report::Results results_;
  std::size_t errors_ = 0;
  std::size_t input_errors_ = 0;
};

/// The ObjectRef of a TrainJob or runtime id.
report::ObjectRef RefOf(const std::string& api_version, const std::string& kind,
                        const std::string& namespace_, const std::string& name);
report::ObjectRef RefOf(const doc::ObjectId& id);

/// The object a pipeline-summary finding (a runtime's) is about: the
/// manifest of the finding's file that starts last at or before its line;
/// unknown when none does.
report::ObjectRef ObjectAt(const source::ManifestSet& manifests, const Diagnostic& diagnostic);

/// The repository's ignore rules (`global`) and every manifest's ignore
/// annotations; an annotation without a reason is itself a finding.
report::Ignores CollectIgnores(const std::vector<report::IgnoreRule>& global,
                               const source::ManifestSet& manifests, FindingsOutput* findings);

}  // namespace tjr::cli
