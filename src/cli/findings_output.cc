#include "cli/findings_output.h"

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

void FindingsOutput::Add(const Diagnostic& found, const report::ObjectRef& object) {
  Diagnostic diagnostic = found;
  if (location_map_) diagnostic.location = location_map_(found.location);
  if (diagnostic.severity == Severity::kNote) {
    if (options_.verbose && stream_ == report::Format::kText) Report(diagnostic);
    return;
  }
  report::Finding finding = report::MakeFinding(diagnostic, object);
  if (report::Ignored(ignores_, finding)) {
    ++results_.ignored;
    if (options_.verbose) Note("ignored [" + finding.rule + "]: " + diagnostic.ToString());
    return;
  }
  if (diagnostic.severity == Severity::kError) {
    ++(diagnostic.category == Category::kInput ? input_errors_ : errors_);
  }
  // Text streams, so a long run shows its findings as they are found.
  if (stream_ == report::Format::kText && !options_.stream_is_stdout) Report(diagnostic);
  results_.findings.push_back(std::move(finding));
}

void FindingsOutput::Add(const Diagnostics& diagnostics, const report::ObjectRef& object) {
  for (const Diagnostic& d : diagnostics) Add(d, object);
}

void FindingsOutput::BeginRun(const source::ManifestSet& manifests,
                              const std::vector<report::IgnoreRule>& global,
                              pipeline::PipelineOptions* options) {
  Add(manifests.diagnostics);
  results_.files_skipped += manifests.skipped_files.size();
  SetIgnores(CollectIgnores(global, manifests, this));
  // Only reads the rules: safe from the pipeline's worker threads.
  options->ignored_warning = [this](const doc::ObjectId& id, const Diagnostic& d) {
    return Ignores(RefOf(id), d);
  };
}

report::ObjectRef FindingsOutput::AddResult(const pipeline::TrainJobResult& result) {
  report::ObjectRef ref = RefOf(result.id);
  AddSubject(ref);
  AddChecked(1);
  AddRendered(result.objects.size());
  Add(result.diagnostics, ref);
  return ref;
}

void FindingsOutput::Record(const Diagnostic& diagnostic, const report::ObjectRef& object) {
  results_.findings.push_back(report::MakeFinding(diagnostic, object));
}

bool FindingsOutput::WriteReportFiles() {
  report::WriteOptions write_options;
  write_options.tool_version = Version();
  bool ok = true;
  for (const auto& [format, path] : files_) {
    Status written = WriteFileAtomically(path, report::Write(format, results_, write_options));
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
    std::string line = report::SummaryLine(results_) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
  } else {
    std::string document = report::Write(stream_, results_, write_options);
    if (options_.stream_is_stdout) {
      WriteStdout(document);
    } else {
      std::fwrite(document.data(), 1, document.size(), stderr);
    }
  }
  if (options_.verbose && results_.ignored > 0) {
    Note(std::to_string(results_.ignored) + " finding(s) ignored by ignore rules");
  }
  return WriteReportFiles();
}

report::ObjectRef RefOf(const std::string& api_version, const std::string& kind,
                        const std::string& namespace_, const std::string& name) {
  return report::ObjectRef{api_version, kind, namespace_, name};
}

report::ObjectRef RefOf(const doc::ObjectId& id) {
  return RefOf(id.api_version, id.kind, id.namespace_, id.name);
}

report::ObjectRef ObjectAt(const source::ManifestSet& manifests, const Diagnostic& diagnostic) {
  const Location& at = diagnostic.location;
  const source::Manifest* best = nullptr;
  if (!at.known() || at.line == 0) return {};
  for (const source::Manifest& m : manifests.manifests) {
    const Location& start = m.location();
    if (!start.known() || *start.file != *at.file || start.line > at.line) continue;
    if (best == nullptr || start.line >= best->location().line) best = &m;
  }
  if (best == nullptr) return {};
  return RefOf(best->id);
}

report::Ignores CollectIgnores(const std::vector<report::IgnoreRule>& global,
                               const source::ManifestSet& manifests, FindingsOutput* findings) {
  report::Ignores ignores;
  ignores.global = global;
  for (const source::Manifest& manifest : manifests.manifests) {
    Diagnostics problems;
    std::vector<report::IgnoreRule> rules = report::ObjectIgnores(manifest.object, &problems);
    report::ObjectRef ref =
        RefOf(manifest.id.api_version, manifest.id.kind, manifest.id.namespace_, manifest.id.name);
    findings->Add(problems, ref);
    if (!rules.empty()) ignores.by_object[ref.Key()] = std::move(rules);
  }
  return ignores;
}

}  // namespace tjr::cli
