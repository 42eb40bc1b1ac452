// `tjrender diff BASE [HEAD]`: what the Trainer controller would create
// differently at HEAD than at BASE, and whether the cluster would accept
// HEAD's TrainJobs as updates of BASE's.
#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include "batch/affected.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/render_source.h"
#include "diff/base_side.h"
#include "diff/json_format.h"
#include "diff/markdown_format.h"
#include "diff/revision.h"
#include "diff/text_format.h"
#include "pipeline/pipeline.h"
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
    "--report FORMAT=FILE also writes them to FILE). Exit 0 no differences, 1 differences or\n"
    "errors at HEAD, 2 usage or input errors.\n";

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
      "verbose,v", po::bool_switch(&options->verbose), "print notes")(
      "jobs,j", po::value(&options->threads), "worker threads (default: the number of cores)")(
      "threads", po::value(&options->threads), "the same as --jobs (render's older name)");
  AddReportOptions(&named, &options->report, "findings-format");
  if (auto exit_code = ParseCommandLine(args, named, &options->revisions, kDiffUsage)) return exit_code;
  if (!options->target.empty()) options->target = CanonicalTarget(options->target);
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

// What both revisions are read as, and from where.
struct Inputs {
  std::string base_label;
  std::string head_label;
  bool base_is_revision = false;
  source::ManifestSet base;
  source::ManifestSet head;
  std::optional<std::string> base_target;
  std::optional<std::string> head_target;
  /// Set when only some TrainJobs are compared: HEAD's affected ones, and
  /// at BASE those plus the ones HEAD removed.
  std::optional<std::set<std::string>> head_only;
  std::optional<std::set<std::string>> base_only;
  /// Builds the targets' tables while the inputs are read.
  std::jthread prepare;
};

// The tables of the targets BASE and HEAD render for, built on another
// thread (nothing when `threads` is 1).
std::jthread PrepareTargets(const DiffOptions& options, const std::optional<std::string>& base,
                            const std::optional<std::string>& head) {
  std::vector<std::string> names;
  for (const std::optional<std::string>* side : {&base, &head}) {
    names.push_back(!options.target.empty() ? options.target : side->value_or(std::string(pipeline::kDefaultTarget)));
  }
  return pipeline::PrepareInBackground(std::move(names), options.threads);
}

bool IsFolder(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

Result<Inputs> ReadFolders(const DiffOptions& options, const source::LoadOptions& load) {
  if (!options.paths.empty() || options.all || !options.repo.empty()) {
    return AsInputError(MakeError(Location{}, "", "--path, --all and --repo are for Git revisions, not folders"));
  }
  Inputs inputs;
  const std::string& head = options.revisions.size() > 1 ? options.revisions[1] : ".";
  // "old/" names the folder "old" in labels ("old/JobSet/...").
  auto label = [](std::string name) {
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    return name;
  };
  inputs.base_label = label(options.revisions[0]);
  inputs.head_label = label(head);
  for (bool at_base : {true, false}) {
    Result<std::unique_ptr<RenderSource>> opened =
        OpenRenderSource(SourceRequest{{at_base ? options.revisions[0] : head}, "", "", ""});
    if (!opened.ok()) return opened.take_error();
    const RenderSource& source = **opened;
    (at_base ? inputs.base : inputs.head) = source::LoadManifests(source.tree(), source.paths, load);
    (at_base ? inputs.base_target : inputs.head_target) = source.config.target;
  }
  return inputs;
}

Result<Inputs> ReadRevisions(const DiffOptions& options, const source::LoadOptions& load_options) {
  // A file both revisions hold unchanged is parsed once.
  source::ParseCache parsed;
  source::LoadOptions load = load_options;
  load.parse_cache = &parsed;
  const std::string head = options.revisions.size() > 1 ? options.revisions[1] : "";
  // As `git diff`: the whole repository unless paths are given, from any
  // folder of it.
  std::vector<std::string> paths = options.paths;
  if (paths.empty()) {
    Result<source::GitRepository> repo = source::FindGitRepository(options.repo.empty() ? "." : options.repo);
    if (!repo.ok()) {
      return AsInputError(MakeError(Location{}, "", "'" + options.revisions[0] +
                                                        "' is no folder and no Git repository holds " +
                                                        (options.repo.empty() ? "this folder" : options.repo) +
                                                        " (" + repo.error().message + ")"));
    }
    if (!repo->workdir.empty()) paths.push_back(repo->workdir);
  }
  Result<std::unique_ptr<RenderSource>> opened =
      OpenRenderSource(SourceRequest{paths, head, options.revisions[0], options.repo});
  if (!opened.ok()) return opened.take_error();
  const RenderSource& source = **opened;
  Inputs inputs;
  inputs.base_label = options.revisions[0];
  inputs.head_label = head.empty() ? "worktree" : head;
  inputs.base_is_revision = true;
  inputs.head_target = source.config.target;
  Result<RepoConfig> base_config = ReadRepoConfig(*source.base_git, source.config_path);
  if (!base_config.ok()) return base_config.take_error();
  inputs.base_target = base_config->target;
  inputs.prepare = PrepareTargets(options, inputs.base_target, inputs.head_target);

  if (options.all || !source.config_unchanged_since) {
    if (!options.all) Note(source.config_path + " differs: every TrainJob is compared");
    inputs.head = source::LoadManifests(source.tree(), source.paths, load);
    inputs.base = source::LoadManifests(source.base_tree(), source.paths, load);
    return inputs;
  }
  const source::GitRepository& repo = *source.repo;
  const std::string repo_dir = repo.workdir.empty() ? repo.git_dir : repo.workdir;
  batch::InventoryCache cache =
      batch::InventoryCache::Load(batch::InventoryCachePath(repo.git_dir), batch::CacheContext(load));
  batch::SinceSources sources{source.base_tree(), *source.base_git, source.tree(), source.head_git.get(),
                              source.paths, [&] {
                                return source::ChangedPaths(repo_dir, options.revisions[0], head, source.paths,
                                                            load.threads);
                              }};
  Result<batch::AffectedSet> found = batch::FindAffected(sources, load, &cache);
  if (!found.ok()) return found.take_error();
  batch::AffectedSet& affected = *found;
  inputs.head_only.emplace();
  for (const batch::Entry& job : affected.affected) inputs.head_only->insert(job.id());
  inputs.base_only = inputs.head_only;
  for (const batch::Entry& job : affected.removed) inputs.base_only->insert(job.id());
  inputs.base = diff::LoadBaseSide({source.base_tree(), *source.base_git, source.paths, std::move(affected.changed)},
                                   *inputs.base_only, affected.manifests, load, &cache);
  inputs.head = std::move(affected.manifests);
  Status saved = cache.Save();
  if (!saved.ok()) Note("inventory cache not saved: " + saved.error().ToString());
  Note(std::to_string(inputs.head_only->size()) + " of " + std::to_string(affected.total_trainjobs) +
       " TrainJob(s) affected, " + std::to_string(affected.removed.size()) + " removed");
  return inputs;
}

}  // namespace

int RunDiff(const std::vector<std::string>& args) {
  DiffOptions options;
  if (auto exit_code = ParseDiffOptions(args, &options)) return *exit_code;
  SetVerbose(options.verbose);
  FindingsOutput findings;
  if (!findings.Init(options.report)) return kExitUsage;

  source::LoadOptions load_options;
  load_options.threads = options.threads;
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = options.strict;
  pipeline_options.threads = options.threads;
  if (!options.namespace_.empty()) {
    load_options.default_namespace = options.namespace_;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = options.namespace_;
  }
  // Two folders, or revisions of one repository.
  const bool folders = IsFolder(options.revisions[0]);
  if (!folders && options.revisions.size() > 1 && IsFolder(options.revisions[1])) {
    ReportUsageError("BASE and HEAD must both be folders or both be Git revisions");
    return kExitUsage;
  }
  Result<Inputs> read = folders ? ReadFolders(options, load_options) : ReadRevisions(options, load_options);
  if (!read.ok()) {
    Report(read.error());
    return kExitUsage;
  }
  Inputs& inputs = *read;

  // Each revision renders for its own target (.tjrender.yaml), unless one
  // is given.
  pipeline::PipelineOptions base_options = pipeline_options;
  pipeline::PipelineOptions head_options = pipeline_options;
  if (!options.target.empty()) {
    inputs.base_target = inputs.head_target = options.target;
  }
  if (inputs.base_target) base_options.target = *inputs.base_target;
  if (inputs.head_target) head_options.target = *inputs.head_target;
  if (!CheckTarget(&base_options.target) || !CheckTarget(&head_options.target)) return kExitUsage;

  diff::RevisionRender base_render = diff::RenderRevision(
      inputs.base, base_options, inputs.base_only ? &*inputs.base_only : nullptr);
  head_options.previous_trainjobs = diff::StoredTrainJobs(inputs.base, base_options.target, head_options.target);
  // TrainJobs BASE created keep the runtime snapshot their controller took.
  head_options.runtime_snapshots = diff::RuntimeSnapshots(base_render);
  diff::RevisionRender head_render = diff::RenderRevision(
      inputs.head, head_options, inputs.head_only ? &*inputs.head_only : nullptr);
  // A Git revision names its files as the working tree does; BASE's say
  // which revision they are from.
  if (inputs.base_is_revision) diff::QualifyFiles(&base_render, inputs.base_label + ":");

  diff::CompareOptions compare;
  compare.base_label = inputs.base_label;
  compare.head_label = inputs.head_label;
  compare.context = options.context;
  compare.threads = options.threads;
  diff::DiffResult result = diff::Compare(base_render, head_render, compare);

  bool input_error = false;
  // BASE's findings first, without its warnings (about the past, as in
  // Compare); then HEAD's, whose TrainJobs are the report's subjects.
  auto add_base = [&](const Diagnostic& d, const report::ObjectRef& ref) {
    if (d.severity != Severity::kWarning) findings.Add(d, ref);
  };
  for (const Diagnostic& d : base_render.diagnostics) add_base(d, {});
  for (const pipeline::TrainJobResult& r : base_render.train_jobs) {
    for (const Diagnostic& d : r.diagnostics) add_base(d, RefOf(r.id));
  }
  findings.Add(head_render.diagnostics);
  for (const pipeline::TrainJobResult& r : head_render.train_jobs) findings.AddResult(r);
  if (!findings.Finish() || findings.has_input_errors()) input_error = true;

  if (options.format == "json") {
    WriteStdout(diff::FormatJson(result, {compare.base_label, compare.head_label}));
  } else if (options.format == "markdown") {
    WriteStdout(diff::FormatMarkdown(result, {compare.base_label, compare.head_label, options.max_bytes}));
  } else {
    WriteStdout(diff::FormatText(result, {.color = ColorWanted(options.color)}));
  }
  if (input_error) return kExitUsage;
  return result.HasDifferences() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
