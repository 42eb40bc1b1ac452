// `tjrender render` and `tjrender check`: the manifest set through the
// pipeline, objects to stdout or a folder, findings to stderr.
#include "cli/render_flow.h"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <optional>
#include <string_view>

#include "app/render_repository.h"
#include "batch/output_tree.h"
#include "cli/command.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "pipeline/target.h"
#include "source/git_tree.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kRenderUsage[] =
    "usage: tjrender render [PATH...] [--rev REV | --staged] [--since BASE [--list-affected]] [--repo DIR]\n"
    "                       [--target TARGET] [-o -|yaml|json | --out DIR [--check]]\n"
    "                       [--format yaml|json] [--for-apply]\n"
    "                       [--namespace NS] [--strict] [--strict-inputs] [--jobs N] [--quiet]\n"
    "                       [--verbose] [--flyte-config FILE] [--findings-format FORMAT]\n"
    "                       [--report FORMAT=FILE]...\n\n"
    "Renders every TrainJob under PATH (files or folders of *.yaml, *.yml, *.json; - is stdin)\n"
    "against its (Cluster)TrainingRuntime as the Kubeflow Trainer controller of TARGET would\n"
    "(trainer-v2.1, trainer-v2.2, trainer-v2.3; default trainer-v2.3; EXPERIMENTAL:\n"
    "trainer-pr3199-preview, PR #3199's unreleased templateOverrides): -o - prints every object\n"
    "as one stream, --out DIR writes DIR/<namespace>/<trainjob>.yaml (and removes the files of\n"
    "TrainJobs that are gone; --check compares instead of writing). The objects are what the\n"
    "controller creates, ownerReferences to the TrainJob included; --for-apply leaves those out\n"
    "for clusters that get the objects without the TrainJob. --rev reads a Git revision\n"
    "without a checkout (--staged: what the next commit holds, Git's index); --since renders only the TrainJobs whose file or runtime changed since\n"
    "BASE. Files that hold no Kubernetes object (workflows, values.yaml, kustomization.yaml,\n"
    "JSON 6902 patch lists, Helm chart templates) are skipped (--verbose says why;\n"
    "--strict-inputs makes them errors). Flyte tasks under PATH render into Pods\n"
    "(DIR/<namespace>/<task>.pod.yaml) with the PodTemplates and propeller ConfigMap found\n"
    "there, or --flyte-config FILE; --target flyte-v1.16 (default for them) or flyte-v2 selects\n"
    "the Flyte version. Errors go to stderr as FILE:LINE:COL: error: MESSAGE (--findings-format\n"
    "text, json, junit, sarif, github; --report FORMAT=FILE also writes them to FILE). Exit 0\n"
    "clean, 1 validation errors, 2 usage or input errors. The .tjrender.yaml of the first\n"
    "PATH's folder or a parent (up to the repository root) may set `target:`, `include:`,\n"
    "`exclude:` and `ignore:`.\n";

const char kCheckUsage[] =
    "usage: tjrender check [PATH...] [--rev REV | --staged] [--since BASE [--list-affected]] [--repo DIR]\n"
    "                      [--target TARGET] [--namespace NS] [--strict] [--strict-inputs]\n"
    "                      [--jobs N] [--quiet] [--verbose] [--format FORMAT]\n"
    "                      [--report FORMAT=FILE]...\n\n"
    "Validates every TrainJob (and Flyte task) under PATH as `tjrender render` does, without\n"
    "writing objects. With --since BASE, TrainJobs that BASE has too are validated as updates\n"
    "of them. --format text (default, on stderr) or json, junit, sarif, github (on stdout);\n"
    "--report FORMAT=FILE (repeatable) also writes the findings to FILE. With PATHs and --repo\n"
    "DIR, the runtimes they reference are also found in DIR (pre-commit). Files that hold no\n"
    "Kubernetes object (workflows, values.yaml, kustomization.yaml, Helm chart templates) are\n"
    "skipped (--verbose says why; --strict-inputs makes them errors).\n";

struct FlowOptions {
  std::string target;
  std::string output;
  std::string out_dir;
  std::string format;  ///< --format; "" until parsed, then yaml unless given
  std::string namespace_;
  bool strict = false;
  bool strict_inputs = false;
  bool no_admission = false;
  bool verbose = false;
  bool quiet = false;
  bool list_affected = false;
  unsigned jobs = 0;
  app::SourceRequest source;
  std::string flyte_config;
  ReportOptions report;
  bool check_out = false;  ///< --check: compare with --out DIR, write nothing
  bool for_apply = false;  ///< --for-apply: pipeline::PrepareForApply
};

std::optional<int> ParseFlowOptions(const std::vector<std::string>& args, bool write,
                                    FlowOptions* options) {
  std::optional<unsigned> threads;
  bool staged = false;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "target", po::value(&options->target),
      ("emulated release: trainer-v2.1, trainer-v2.2, trainer-v2.3 (also v2.3, 2.3, v2.3.0), "
       "trainer-pr3199-preview (experimental); flyte-v1.16, flyte-v2 (default: .tjrender.yaml, else " +
       std::string(pipeline::kDefaultTarget) + ")").c_str())(
      "namespace", po::value(&options->namespace_),
      "namespace of objects written without one (default: default)")(
      "flyte-config", po::value(&options->flyte_config),
      "propeller configuration file (plugins.k8s) for Flyte tasks")(
      "strict", po::bool_switch(&options->strict), "treat warnings as errors")(
      "no-admission", po::bool_switch(&options->no_admission),
      "leave out the cluster's admission of the rendered objects (the JobSet webhook, the Jobs' and Pods' validation)")(
      "strict-inputs", po::bool_switch(&options->strict_inputs),
      "files that hold no Kubernetes object (workflows, values.yaml, Helm templates, "
      "kustomization.yaml) are errors instead of being skipped")(
      "verbose,v", po::bool_switch(&options->verbose), "print counts and notes")(
      "quiet,q", po::bool_switch(&options->quiet), "no progress line")(
      "jobs,j", po::value(&options->jobs), "worker threads (default: the number of cores)")(
      "threads", po::value<unsigned>()->notifier([&](unsigned n) { threads = n; }),
      "the same as --jobs")(
      "rev", po::value(&options->source.rev), "read this Git revision instead of the working tree")(
      "staged", po::bool_switch(&staged),
      "read what is committed plus what is staged (Git's index), not untracked or unstaged changes "
      "(pre-commit)")(
      "since", po::value(&options->source.since),
      "only TrainJobs whose file or runtime changed since this Git revision")(
      "list-affected", po::bool_switch(&options->list_affected),
      "with --since: print the affected TrainJobs (namespace/name) and stop")(
      "repo", po::value(&options->source.repo),
      "the repository (default: the Git one holding the current folder); with PATHs, the "
      "runtimes they reference are also found in it");
  AddReportOptions(&named, &options->report, write ? "findings-format" : "format");
  if (write) {
    named.add_options()("output,o", po::value(&options->output),
                        "- (or yaml, json: that format) prints every object to stdout")(
        "out", po::value(&options->out_dir), "write DIR/<namespace>/<trainjob>.yaml")(
        "check", po::bool_switch(&options->check_out),
        "with --out DIR: write nothing, fail when DIR differs from what would be written")(
        "format", po::value(&options->format), "yaml (default) or json")(
        "for-apply", po::bool_switch(&options->for_apply),
        "objects to apply without the Trainer controller (Flux, a JobSet-only cluster): no "
        "ownerReferences to the TrainJob, and a warning for each Secret nothing will create");
  }
  if (auto exit_code = ParseCommandLine(args, named, &options->source.paths,
                                        write ? kRenderUsage : kCheckUsage)) {
    return exit_code;
  }
  if (threads && options->jobs == 0) options->jobs = *threads;
  if (staged) {
    if (!options->source.rev.empty()) {
      ReportUsageError("--staged and --rev cannot be used together");
      return kExitUsage;
    }
    options->source.rev = source::kStagedRevision;
  }
  if (options->source.paths.empty() && options->source.rev.empty() &&
      options->source.since.empty()) {
    ReportUsageError(std::string(write ? "render" : "check") + " needs at least one PATH");
    return kExitUsage;
  }
  if (options->list_affected && options->source.since.empty()) {
    ReportUsageError("--list-affected needs --since BASE");
    return kExitUsage;
  }
  // kubectl's -o yaml|json: stdout in that format.
  if (options->output == "yaml" || options->output == "json") {
    if (!options->format.empty() && options->format != options->output) {
      ReportUsageError("-o " + options->output + " and --format " + options->format + " disagree");
      return kExitUsage;
    }
    options->format = options->output;
    options->output = "-";
  }
  if (!options->output.empty() && options->output != "-") {
    ReportUsageError("-o takes - (stdout), yaml or json; use --out DIR to write files");
    return kExitUsage;
  }
  if (!options->output.empty() && !options->out_dir.empty()) {
    ReportUsageError("-o - and --out DIR cannot be used together");
    return kExitUsage;
  }
  if (options->check_out && options->out_dir.empty()) {
    ReportUsageError("--check needs --out DIR (the rendered tree to compare)");
    return kExitUsage;
  }
  if (options->format.empty()) options->format = "yaml";
  options->report.verbose = options->verbose;
  options->report.stream_is_stdout = !write && options->report.stream_format != "text";
  if (options->format != "yaml" && options->format != "json") {
    ReportUsageError("--format must be yaml or json, not '" + options->format + "'");
    return kExitUsage;
  }
  return std::nullopt;
}

void ReportCounts(const app::RenderOutcome& outcome) {
  Note("read " + std::to_string(outcome.files) + " file(s): " + std::to_string(outcome.train_jobs) +
       " TrainJob(s), " + std::to_string(outcome.runtimes) + " runtime(s)");
  for (const auto& [key, count] : outcome.ignored_kinds) {
    Note("ignored " + std::to_string(count) + " object(s) of kind " + key.kind + " (" + key.api_version + ")");
  }
  if (outcome.skipped_files > 0) {
    Note("skipped " + std::to_string(outcome.skipped_files) +
         " file(s) holding no Kubernetes object tjrender reads (--strict-inputs makes them errors)");
  }
}

// What the use case shows, printed: objects and listings on stdout,
// problems and notes on stderr, the progress line on a terminal.
class CliSink final : public app::RenderSink {
 public:
  explicit CliSink(bool quiet) : quiet_(quiet) {}
  void Data(std::string_view bytes) override { WriteStdout(bytes); }
  void Problem(const Diagnostic& problem) override { Report(problem); }
  void Note(std::string_view text) override { cli::Note(text); }
  void Notice(std::string_view text) override { cli::Notice(text); }
  void ProgressStart(std::size_t total) override { progress_.emplace(total, Progress::Wanted(quiet_)); }
  void ProgressPause() override {
    if (progress_) progress_->Finish();
  }
  void ProgressTick() override {
    if (progress_) progress_->Tick();
  }

 private:
  bool quiet_;
  std::optional<Progress> progress_;
};

}  // namespace

int RunRenderFlow(const std::vector<std::string>& args, bool write_objects) {
  FlowOptions options;
  if (auto exit_code = ParseFlowOptions(args, write_objects, &options)) return *exit_code;
  SetVerbose(options.verbose);

  FindingsOutput findings;
  if (!findings.Init(options.report)) return kExitUsage;

  app::RenderRequest request;
  request.source = options.source;
  request.source.outputs = findings.FilesThisRunWrites();
  request.target = options.target;
  request.default_namespace = options.namespace_;
  request.strict = options.strict;
  request.admission = !options.no_admission;
  request.strict_inputs = options.strict_inputs;
  request.threads = options.jobs;
  request.flyte_config_file = options.flyte_config;
  request.json = options.format == "json";
  request.for_apply = options.for_apply;
  request.validate_as_updates = !write_objects;
  request.list_affected = options.list_affected;
  request.out_dir = options.out_dir;
  if (!write_objects) {
    request.objects = app::ObjectsTo::kNowhere;
  } else if (options.out_dir.empty()) {
    request.objects = app::ObjectsTo::kStream;
  } else if (options.check_out) {
    request.objects = app::ObjectsTo::kFolderCheck;
    // The rerun reads what the check read: under --staged (the pre-commit
    // hook) the working tree's untracked TrainJobs would otherwise be
    // rendered into DIR, and the next check calls their files "gone".
    request.rerun_command = "`tjrender render";
    if (options.source.rev == source::kStagedRevision) {
      request.rerun_command += " --staged";
    } else if (!options.source.rev.empty()) {
      request.rerun_command += " --rev " + options.source.rev;
    }
    for (const std::string& p : options.source.paths) request.rerun_command += " " + p;
    request.rerun_command += " --out " + options.out_dir + "`";
  } else {
    request.objects = app::ObjectsTo::kFolder;
    if (const char* timeout = std::getenv(batch::kLockTimeoutVariable); timeout != nullptr && *timeout != '\0') {
      char* end = nullptr;
      const double seconds = std::strtod(timeout, &end);
      if (*end != '\0' || !(seconds >= 0 && seconds <= 86400)) {
        ReportUsageError(std::string(batch::kLockTimeoutVariable) + " must be a number of seconds (0 to 86400), not '" +
                         timeout + "'");
        return kExitUsage;
      }
      request.out_lock_timeout_seconds = seconds;
    }
  }

  CliSink sink(options.quiet);
  app::RenderOutcome outcome = app::RenderRepository(request, findings, sink);
  switch (outcome.end) {
    case app::RenderEnd::kRefused:
      return kExitUsage;
    case app::RenderEnd::kListed:
      return outcome.input_error ? kExitUsage : kExitClean;
    case app::RenderEnd::kRendered:
      break;
  }
  bool input_error = outcome.input_error;
  if (!findings.Finish()) input_error = true;
  if (options.verbose) ReportCounts(outcome);
  if (input_error || findings.has_input_errors()) return kExitUsage;
  return findings.has_errors() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
