// `tjrender diff BASE [HEAD]`: what the Trainer controller would create
// differently at HEAD than at BASE, and whether the cluster would accept
// HEAD's TrainJobs as updates of BASE's.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdlib>

#include <unistd.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/revision_source.h"
#include "diff/json_format.h"
#include "diff/markdown_format.h"
#include "diff/revision.h"
#include "diff/text_format.h"
#include "pipeline/pipeline.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kDiffUsage[] =
    "usage: tjrender diff BASE [HEAD] [--format text|markdown|json] [--color auto|always|never]\n"
    "                     [--path P]... [-U N] [--max-bytes N] [--target T] [--namespace NS]\n"
    "                     [--strict] [--threads N] [--verbose]\n\n"
    "Renders the TrainJobs of two revisions and prints what differs, object by object, after a\n"
    "summary. BASE and HEAD are folders, or revisions of the Git repository here (read without a\n"
    "checkout); HEAD defaults to its working tree. HEAD's TrainJobs are validated as updates of\n"
    "BASE's (immutable fields, podTemplateOverrides only while suspended); errors go to stderr.\n"
    "Exit 0 no differences, 1 differences or errors at HEAD, 2 usage or input errors.\n";

struct DiffOptions {
  std::string format = "text";
  std::string color = "auto";
  std::vector<std::string> paths;
  std::size_t context = 3;
  std::size_t max_bytes = diff::kGitHubCommentLimit;
  std::string target;
  std::string namespace_;
  bool strict = false;
  bool verbose = false;
  unsigned threads = 0;
  std::vector<std::string> revisions;
};

std::optional<int> ParseDiffOptions(const std::vector<std::string>& args, DiffOptions* options) {
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "format", po::value(&options->format), "text (default), markdown (a pull-request comment) or json")(
      "color", po::value(&options->color), "auto (default: when stdout is a terminal), always or never")(
      "path", po::value(&options->paths), "read only this folder or file (repeatable)")(
      "unified,U", po::value(&options->context), "lines of context (default 3)")(
      "max-bytes", po::value(&options->max_bytes), "markdown: the longest comment (default 65536)")(
      "target", po::value(&options->target), "emulated Trainer version (trainer-v2.1)")(
      "namespace", po::value(&options->namespace_), "namespace of objects written without one")(
      "strict", po::bool_switch(&options->strict), "treat warnings as errors")(
      "verbose,v", po::bool_switch(&options->verbose), "print notes")(
      "threads,j", po::value(&options->threads), "worker threads (default: the number of cores)");
  if (auto exit_code = ParseCommandLine(args, named, &options->revisions, kDiffUsage)) return exit_code;
  if (options->revisions.empty() || options->revisions.size() > 2) {
    ReportUsageError("diff takes BASE and an optional HEAD");
    return kExitUsage;
  }
  if (options->format != "text" && options->format != "markdown" && options->format != "json") {
    ReportUsageError("--format must be text, markdown or json, not '" + options->format + "'");
    return kExitUsage;
  }
  if (options->color != "auto" && options->color != "always" && options->color != "never") {
    ReportUsageError("--color must be auto, always or never, not '" + options->color + "'");
    return kExitUsage;
  }
  // Below this the counts and the notice alone could not fit.
  if (options->max_bytes < 2048) {
    ReportUsageError("--max-bytes must be at least 2048");
    return kExitUsage;
  }
  return std::nullopt;
}

bool UseColor(const std::string& mode) {
  if (mode != "auto") return mode == "always";
  // https://no-color.org: any non-empty NO_COLOR turns colour off.
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) == 1 && (no_color == nullptr || *no_color == '\0') &&
         !(term != nullptr && std::string(term) == "dumb");
}

bool ValidTarget(const std::string& target) {
  const std::vector<std::string>& targets = pipeline::SupportedTargets();
  if (std::find(targets.begin(), targets.end(), target) != targets.end()) return true;
  std::string list;
  for (const std::string& t : targets) list += (list.empty() ? "" : ", ") + t;
  ReportUsageError("unsupported target '" + target + "' (supported: " + list + ")");
  return false;
}

}  // namespace

int RunDiff(const std::vector<std::string>& args) {
  DiffOptions options;
  if (auto exit_code = ParseDiffOptions(args, &options)) return *exit_code;
  SetVerbose(options.verbose);

  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = options.strict;
  pipeline_options.threads = options.threads;
  if (!options.target.empty()) pipeline_options.target = options.target;
  if (!ValidTarget(pipeline_options.target)) return kExitUsage;
  source::LoadOptions load_options;
  if (!options.namespace_.empty()) {
    load_options.default_namespace = options.namespace_;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = options.namespace_;
  }

  auto base = OpenRevision(options.revisions[0], options.paths);
  if (!base.ok()) {
    Report(base.error());
    return kExitUsage;
  }
  auto head = OpenRevision(options.revisions.size() > 1 ? options.revisions[1] : "", options.paths);
  if (!head.ok()) {
    Report(head.error());
    return kExitUsage;
  }

  source::ManifestSet base_set = LoadRevision(**base, load_options);
  source::ManifestSet head_set = LoadRevision(**head, load_options);
  diff::RevisionRender base_render = diff::RenderRevision(base_set, pipeline_options);
  pipeline::PipelineOptions head_options = pipeline_options;
  head_options.previous_trainjobs = diff::StoredTrainJobs(base_set);
  diff::RevisionRender head_render = diff::RenderRevision(head_set, head_options);
  // A Git revision names its files as the working tree does; BASE's say
  // which revision they are from.
  if ((*base)->type == RevisionSource::Type::kGitRevision) {
    diff::QualifyFiles(&base_render, (*base)->label + ":");
  }

  diff::CompareOptions compare;
  compare.base_label = (*base)->label;
  compare.head_label = (*head)->label;
  compare.context = options.context;
  diff::DiffResult result = diff::Compare(base_render, head_render, compare);

  bool input_error = false;
  bool at_base = true;
  auto report = [&](const Diagnostic& d) {
    if (at_base && d.severity == Severity::kWarning) return;  // as Compare: about the past
    if (d.severity == Severity::kNote) {
      if (options.verbose) Report(d);
      return;
    }
    Report(d);
    if (d.severity == Severity::kError && d.category == Category::kInput) input_error = true;
  };
  // The same order as the report's findings: BASE, then HEAD.
  for (const diff::RevisionRender* render : {&base_render, &head_render}) {
    for (const Diagnostic& d : render->diagnostics) report(d);
    for (const pipeline::TrainJobResult& r : render->train_jobs) {
      for (const Diagnostic& d : r.diagnostics) report(d);
    }
    at_base = false;
  }

  if (options.format == "json") {
    WriteStdout(diff::FormatJson(result, {compare.base_label, compare.head_label}));
  } else if (options.format == "markdown") {
    WriteStdout(diff::FormatMarkdown(result, {compare.base_label, compare.head_label, options.max_bytes}));
  } else {
    WriteStdout(diff::FormatText(result, {.color = UseColor(options.color)}));
  }
  if (input_error) return kExitUsage;
  return result.HasDifferences() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
