// `tjrender diff BASE [HEAD]`: what the Trainer controller would create
// differently at HEAD than at BASE, and whether the cluster would accept
// HEAD's TrainJobs as updates of BASE's.
#include <boost/program_options.hpp>

#include <string_view>

#include "app/diff_revisions.h"
#include "app/target_name.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "diff/json_format.h"
#include "diff/markdown_format.h"
#include "diff/text_format.h"
#include "pipeline/target.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kDiffUsage[] =
    "usage: tjrender diff BASE [HEAD] [--format text|markdown|json] [--color auto|always|never]\n"
    "                     [--path P]... [--all] [--repo DIR] [-U N] [--max-bytes N] [--target T]\n"
    "                     [--namespace NS] [--strict] [--jobs N] [--verbose]\n"
    "                     [--findings-format FORMAT] [--report FORMAT=FILE]...\n\n"
    "Renders the TrainJobs of two revisions and prints what differs, object by object, after a\n"
    "summary. BASE and HEAD are revisions of the Git repository here (read without a checkout;\n"
    "HEAD defaults to the working tree), and only TrainJobs whose file or runtime changed are\n"
    "rendered (--all: every one); or BASE and HEAD are two folders. HEAD's TrainJobs are\n"
    "validated as updates of BASE's (immutable fields, podTemplateOverrides only while\n"
    "suspended); errors go to stderr (--findings-format text, json, junit, sarif, github;\n"
    "--report FORMAT=FILE also writes them to FILE). Exit 0 no differences (whatever HEAD's\n"
    "findings: those are `tjrender check`'s), 1 differences or nothing compared (every TrainJob\n"
    "refused at HEAD), 2 usage or input errors.\n";

struct DiffOptions {
  std::string format = "text";
  std::string color = "auto";
  std::vector<std::string> paths;
  bool all = false;
  std::string repo;
  std::size_t context = 3;
  std::size_t max_bytes = diff::kGitHubCommentLimit;
  std::string target;
  std::string namespace_;
  bool strict = false;
  bool no_admission = false;
  bool verbose = false;
  unsigned threads = 0;
  std::vector<std::string> revisions;
  ReportOptions report;
};

std::optional<int> ParseDiffOptions(const std::vector<std::string>& args, DiffOptions* options) {
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "format", po::value(&options->format), "text (default), markdown (a pull-request comment) or json")(
      "color", po::value(&options->color), "auto (default: when stdout is a terminal), always or never")(
      "path", po::value(&options->paths), "Git: compare only this repository folder or file (repeatable)")(
      "all", po::bool_switch(&options->all), "Git: render every TrainJob, not only the affected ones")(
      "repo", po::value(&options->repo), "Git: the repository (default: the one holding this folder)")(
      "unified,U", po::value(&options->context), "lines of context (default 3)")(
      "max-bytes", po::value(&options->max_bytes), "markdown: the longest comment (default 65536)")(
      "target", po::value(&options->target),
      ("emulated Trainer version (default: each revision's .tjrender.yaml, else " +
       std::string(pipeline::kDefaultTarget) + ")").c_str())(
      "namespace", po::value(&options->namespace_), "namespace of objects written without one")(
      "strict", po::bool_switch(&options->strict), "treat warnings as errors")(
      "no-admission", po::bool_switch(&options->no_admission),
      "leave out the cluster's admission of the rendered objects (the JobSet webhook, the Jobs' and Pods' validation)")(
      "verbose,v", po::bool_switch(&options->verbose), "print notes")(
      "jobs,j", po::value(&options->threads), "worker threads (default: the number of cores)")(
      "threads", po::value(&options->threads), "the same as --jobs (render's older name)");
  AddReportOptions(&named, &options->report, "findings-format");
  if (auto exit_code = ParseCommandLine(args, named, &options->revisions, kDiffUsage)) return exit_code;
  if (!options->target.empty()) options->target = app::CanonicalTarget(options->target);
  options->report.verbose = options->verbose;
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

// What the use case shows, printed.
class CliDiffSink final : public app::DiffSink {
 public:
  void Problem(const Diagnostic& problem) override { Report(problem); }
  void Note(std::string_view text) override { cli::Note(text); }
  void Notice(std::string_view text) override { cli::Notice(text); }
};

}  // namespace

int RunDiff(const std::vector<std::string>& args) {
  DiffOptions options;
  if (auto exit_code = ParseDiffOptions(args, &options)) return *exit_code;
  SetVerbose(options.verbose);
  FindingsOutput findings;
  if (!findings.Init(options.report)) return kExitUsage;

  app::DiffRequest request;
  request.base = options.revisions[0];
  if (options.revisions.size() > 1) request.head = options.revisions[1];
  request.paths = options.paths;
  request.all = options.all;
  request.repo = options.repo;
  request.context = options.context;
  request.target = options.target;
  request.default_namespace = options.namespace_;
  request.strict = options.strict;
  request.admission = !options.no_admission;
  request.threads = options.threads;
  request.outputs = findings.FilesThisRunWrites();
  CliDiffSink sink;
  app::DiffOutcome outcome = app::DiffRevisions(request, findings, sink);
  if (!outcome.compared) return kExitUsage;
  const diff::DiffResult& result = outcome.result;
  bool input_error = false;
  if (!findings.Finish() || findings.has_input_errors()) input_error = true;

  if (options.format == "json") {
    WriteStdout(diff::FormatJson(result, {outcome.base_label, outcome.head_label}));
  } else if (options.format == "markdown") {
    WriteStdout(diff::FormatMarkdown(result, {outcome.base_label, outcome.head_label, options.max_bytes}));
  } else {
    WriteStdout(diff::FormatText(result, {.color = ColorWanted(options.color)}));
  }
  if (input_error) return kExitUsage;
  // HEAD's errors alone are `check`'s to fail on: a pull request's diff
  // step says "no differences" and passes, the check step fails. Nothing
  // compared is no answer, so it is not a pass either.
  return result.HasDifferences() || result.NothingCompared() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
