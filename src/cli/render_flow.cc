// `tjrender render` and `tjrender check`: the manifest set through the
// pipeline, objects to stdout or a folder, findings to stderr.
#include "cli/render_flow.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>
#include <thread>

#include "batch/affected.h"
#include "batch/inventory.h"
#include "batch/inventory_cache.h"
#include "batch/output_tree.h"
#include "base/file.h"
#include "base/stop_point.h"
#include "cli/command.h"
#include "cli/findings_output.h"
#include "cli/manifest_tree.h"
#include "cli/options.h"
#include "cli/out_check.h"
#include "cli/output.h"
#include "cli/previous_state.h"
#include "cli/progress.h"
#include "cli/render_config.h"
#include "cli/render_source.h"
#include "flyte/render.h"
#include "json/json.h"
#include "pipeline/for_apply.h"
#include "pipeline/pipeline.h"
#include "pipeline/target.h"
#include "source/git_tree.h"
#include "source/loader.h"
#include "trainer/skeleton.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

const char kRenderUsage[] =
    "usage: tjrender render [PATH...] [--rev REV] [--since BASE [--list-affected]] [--repo DIR]\n"
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
    "without a checkout; --since renders only the TrainJobs whose file or runtime changed since\n"
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
    "usage: tjrender check [PATH...] [--rev REV] [--since BASE [--list-affected]] [--repo DIR]\n"
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
  bool verbose = false;
  bool quiet = false;
  bool list_affected = false;
  unsigned jobs = 0;
  SourceRequest source;
  std::string flyte_config;
  ReportOptions report;
  bool check_out = false;  ///< --check: compare with --out DIR, write nothing
  bool for_apply = false;  ///< --for-apply: pipeline::PrepareForApply
};

void AppendObject(const doc::Node& object, bool json, std::string* out) {
  if (json) {
    *out += json::Write(object, true);
  } else {
    yaml::Write(object, out);
  }
}

// One TrainJob's objects as the output holds them: YAML documents with
// separators between them, or one JSON text each.
std::string EncodeObjects(const std::vector<doc::Node>& objects, bool json) {
  std::string bytes;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (i > 0 && !json) bytes += "---\n";
    AppendObject(objects[i], json, &bytes);
  }
  return bytes;
}

// Writes each TrainJob's objects as it arrives, so nothing is held longer
// than the pipeline's window.
class Output {
 public:
  Output(const FlowOptions& options, bool write, batch::OutputTree* tree, OutTreeCheck* check)
      : options_(options), write_(write), tree_(tree), check_(check) {}

  /// Serializes a result's objects in the output format into
  /// result.encoded, for PipelineOptions::finish (any thread).
  void Encode(pipeline::TrainJobResult& result) const {
    if (write_) result.encoded = EncodeObjects(result.objects, options_.format == "json");
  }

  /// Returns false when a file could not be written (reported).
  bool Add(const pipeline::TrainJobResult& result) {
    return Add(result.id.namespace_, result.id.name, result.file, result.objects,
               result.objects.empty() || !result.encoded.empty() ? &result.encoded : nullptr, "",
               batch::OutputKind::kTrainJob, FirstError(result.diagnostics));
  }

  bool Add(const flyte::TaskResult& result) {
    return Add(result.namespace_, result.name, result.file, result.objects, nullptr, ".pod",
               batch::OutputKind::kFlyteTask, FirstError(result.diagnostics));
  }

  void Flush() {
    if (!buffer_.empty()) WriteStdout(buffer_);
    buffer_.clear();
  }

  std::string Extension() const { return options_.format == "json" ? ".json" : ".yaml"; }

 private:
  // `kind_suffix` tells a Flyte task's Pod (".pod") from a TrainJob's
  // objects ("") in the output folder. `encoded` is EncodeObjects(objects)
  // when a worker made it already.
  static const Diagnostic* FirstError(const Diagnostics& diagnostics) {
    auto error = std::find_if(diagnostics.begin(), diagnostics.end(),
                              [](const Diagnostic& d) { return d.severity == Severity::kError; });
    return error == diagnostics.end() ? nullptr : &*error;
  }

  // `refused_by`: the error that stopped an object that renders nothing.
  bool Add(const std::string& namespace_, const std::string& name, const std::string& source_file,
           const std::vector<doc::Node>& objects, const std::string* encoded,
           const std::string& kind_suffix, batch::OutputKind kind, const Diagnostic* refused_by) {
    if (!write_) return true;
    const bool json = options_.format == "json";
    std::string made;
    const std::string& bytes = encoded != nullptr ? *encoded : (made = EncodeObjects(objects, json));
    if (tree_ == nullptr && check_ == nullptr) {
      if (!objects.empty()) {
        if (wrote_any_ && !json) buffer_ += "---\n";
        buffer_ += bytes;
        wrote_any_ = true;
      }
      if (buffer_.size() >= (std::size_t{1} << 20)) Flush();
      return true;
    }
    Result<std::string> file = batch::OutputFileFor(namespace_, name, kind_suffix + Extension(), kind);
    if (!file.ok()) {
      Diagnostic error = file.take_error();
      error.location = Location{InternSourceName(source_file)};
      Report(error);
      return false;
    }
    if (check_ != nullptr) {
      const std::string path = (fs::path(options_.out_dir) / *file).string();
      if (!objects.empty()) {
        check_->Expect(path, bytes);
      } else if (refused_by != nullptr) {
        check_->Refused(path, *refused_by);
      }
      return true;
    }
    // A TrainJob that no longer renders leaves no stale output behind.
    if (objects.empty()) {
      tree_->Remove(*file);
      return true;
    }
    Status written = tree_->Put(*file, bytes);
    if (!written.ok()) {
      Report(AsInputError(written.take_error()));
      return false;
    }
    return true;
  }

  const FlowOptions& options_;
  bool write_;
  batch::OutputTree* tree_;
  OutTreeCheck* check_;
  bool wrote_any_ = false;
  std::string buffer_;
};

std::optional<int> ParseFlowOptions(const std::vector<std::string>& args, bool write,
                                    FlowOptions* options) {
  std::optional<unsigned> threads;
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
      "strict-inputs", po::bool_switch(&options->strict_inputs),
      "files that hold no Kubernetes object (workflows, values.yaml, Helm templates, "
      "kustomization.yaml) are errors instead of being skipped")(
      "verbose,v", po::bool_switch(&options->verbose), "print counts and notes")(
      "quiet,q", po::bool_switch(&options->quiet), "no progress line")(
      "jobs,j", po::value(&options->jobs), "worker threads (default: the number of cores)")(
      "threads", po::value<unsigned>()->notifier([&](unsigned n) { threads = n; }),
      "the same as --jobs")(
      "rev", po::value(&options->source.rev), "read this Git revision instead of the working tree")(
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

void ReportCounts(const source::ManifestSet& manifests, const pipeline::PipelineSummary& summary) {
  Note("read " + std::to_string(manifests.files.size()) + " file(s): " +
       std::to_string(summary.train_jobs) + " TrainJob(s), " + std::to_string(summary.runtimes) +
       " runtime(s)");
  for (const auto& [key, count] : manifests.ignored) {
    Note("ignored " + std::to_string(count) + " object(s) of kind " + key.kind + " (" +
         key.api_version + ")");
  }
  if (!manifests.skipped_files.empty()) {
    Note("skipped " + std::to_string(manifests.skipped_files.size()) +
         " file(s) holding no Kubernetes object tjrender reads (--strict-inputs makes them errors)");
  }
}

// The --flyte-config file: one YAML (or JSON) document.
Result<doc::Node> ReadFlyteConfig(const std::string& path) {
  Result<std::string> text = ReadFile(path, std::size_t{64} << 20);
  if (!text.ok()) return text.take_error();
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(*text, path);
  if (!documents.ok()) return documents.take_error();
  if (documents->empty()) return doc::Node::Mapping();
  return (*documents)[0];
}

// --repo DIR with PATHs (a pre-commit hook's staged files): the repository
// around the entry points joins them. The runtimes their TrainJobs
// reference, so those resolve; and the TrainJobs of DIR that reference a
// runtime among the entry points, so a runtime change that breaks a
// TrainJob nobody staged is refused too. Files named as entry points and
// objects already loaded are not read twice; problems in DIR's other files
// (and its other runtimes) are not the entry points' findings.
void AddRepositoryContext(const std::string& repo, const source::LoadOptions& entry_options,
                          source::ManifestSet* manifests) {
  std::set<std::string> entry_files;
  std::set<doc::ObjectId> loaded;
  std::set<std::string> entry_runtimes;
  std::set<std::string> referenced;
  std::error_code error;
  for (const std::string& file : manifests->files) {
    entry_files.insert(fs::weakly_canonical(file, error).string());
  }
  for (const source::Manifest& m : manifests->manifests) {
    loaded.insert(m.id);
    batch::Entry entry;
    if (!batch::SummarizeOne(m, &entry)) continue;
    (entry.is_trainjob() ? referenced : entry_runtimes).insert(entry.is_trainjob() ? entry.runtime_key : entry.key());
  }
  source::LoadOptions options = entry_options;
  options.enforce_namespace = false;
  options.strict_inputs = false;
  source::ManifestSet repository = source::LoadManifests(ManifestTree(), {repo}, options);
  std::size_t runtimes = 0;
  std::size_t trainjobs = 0;
  for (source::Manifest& m : repository.manifests) {
    if (entry_files.count(fs::weakly_canonical(m.file, error).string()) || loaded.count(m.id)) continue;
    batch::Entry entry;
    if (!batch::SummarizeOne(m, &entry)) continue;
    if (entry.is_trainjob() ? entry_runtimes.count(entry.runtime_key) == 0 : referenced.count(entry.key()) == 0) {
      continue;
    }
    ++(entry.is_trainjob() ? trainjobs : runtimes);
    manifests->manifests.push_back(std::move(m));
  }
  Note("--repo " + repo + ": " + std::to_string(runtimes) + " runtime(s) added that the PATHs' TrainJobs " +
       "reference, " + std::to_string(trainjobs) + " TrainJob(s) added that reference a runtime among the PATHs, " +
       std::to_string(repository.diagnostics.size()) + " message(s) about its other files not shown");
}

}  // namespace

int RunRenderFlow(const std::vector<std::string>& args, bool write_objects) {
  FlowOptions options;
  if (auto exit_code = ParseFlowOptions(args, write_objects, &options)) return *exit_code;
  SetVerbose(options.verbose);

  FindingsOutput findings;
  if (!findings.Init(options.report)) return kExitUsage;

  Result<std::unique_ptr<RenderSource>> opened = OpenRenderSource(options.source);
  if (!opened.ok()) {
    Report(opened.error());
    return kExitUsage;
  }
  const RenderSource& input = **opened;

  // A Flyte target selects the Flyte version; Trainer keeps its own.
  flyte::FlyteOptions flyte_options;
  if (std::optional<flyte::Version> version = flyte::VersionForTarget(options.target)) {
    flyte_options.version = *version;
    options.target.clear();
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = options.strict;
  pipeline_options.threads = options.jobs;
  if (options.target.empty() && input.config.target) {
    options.target = *input.config.target;
    Note("target " + options.target + " from " + input.config_path);
  }
  if (!options.target.empty()) pipeline_options.target = options.target;
  if (!CheckTarget(&pipeline_options.target, ", flyte-v1.16, flyte-v2")) return kExitUsage;
  // The tables renders read are built while the inputs are read (joined
  // when it goes out of scope, whichever way the run ends).
  std::jthread prepare = pipeline::PrepareInBackground({pipeline_options.target}, options.jobs);

  source::LoadOptions load_options;
  load_options.threads = options.jobs;
  load_options.strict_inputs = options.strict_inputs;
  if (!options.namespace_.empty()) {
    load_options.default_namespace = options.namespace_;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = options.namespace_;
  }
  for (const source::ObjectType& type : flyte::FlyteObjectTypes()) load_options.types.push_back(type);
  flyte::AcceptFlyteTasks(&load_options);
  flyte_options.strict = options.strict;
  flyte_options.default_namespace = load_options.default_namespace;
  if (!options.flyte_config.empty()) {
    Result<doc::Node> config = ReadFlyteConfig(options.flyte_config);
    if (!config.ok()) {
      Report(AsInputError(config.take_error()));
      return kExitUsage;
    }
    flyte_options.config_document = std::move(*config);
  }

  std::optional<batch::InventoryCache> cache;
  if (input.repo) {
    cache = batch::InventoryCache::Load(batch::InventoryCachePath(input.repo->git_dir),
                                        batch::CacheContext(load_options));
  }
  const bool since = input.base_git != nullptr && input.config_unchanged_since;
  if (input.base_git != nullptr && !since) {
    Note(input.config_path + " differs from " + options.source.since +
         ": every TrainJob is affected");
  }
  source::ManifestSet manifests;
  std::vector<batch::Entry> removed;
  std::atomic<bool> reload_failed = false;
  if (since) {
    const std::string repo_dir = input.repo->workdir.empty() ? input.repo->git_dir : input.repo->workdir;
    batch::SinceSources sources{input.base_tree(), *input.base_git, input.tree(), input.head_git.get(),
                                input.paths, [&] {
                                  return source::ChangedPaths(repo_dir, options.source.since,
                                                              options.source.rev, input.paths, options.jobs);
                                }};
    Result<batch::AffectedSet> found = batch::FindAffected(sources, load_options, &*cache);
    if (!found.ok()) {
      Report(found.error());
      return kExitUsage;
    }
    batch::AffectedSet& affected = *found;
    if (!write_objects) {  // check --since: updates of BASE's TrainJobs
      std::set<std::string> ids;
      for (const batch::Entry& job : affected.affected) ids.insert(job.id());
      pipeline_options.previous_trainjobs = PreviousTrainJobs(input, &affected.changed, &ids, affected.manifests,
                                                              load_options, &*cache, pipeline_options.target);
    }
    if (options.verbose) {
      Note(std::to_string(affected.affected.size()) + " of " +
           std::to_string(affected.total_trainjobs) + " TrainJob(s) affected since " +
           options.source.since + " (" + std::to_string(affected.changed.size()) +
           " changed path(s), " + std::to_string(affected.changed_runtimes.size()) +
           " changed runtime(s), " + std::to_string(affected.files_parsed) + " file(s) parsed)");
    }
    if (options.list_affected) {
      Report(affected.manifests.diagnostics);
      std::string listing;
      for (const batch::Entry& job : affected.affected) listing += job.id() + "\n";
      WriteStdout(listing);
      (void)cache->Save();
      return affected.manifests.has_errors() ? kExitUsage : kExitClean;
    }
    manifests = std::move(affected.manifests);
    removed = std::move(affected.removed);
  } else {
    // TrainJobs alone in their file are kept as skeletons and read again by
    // the worker that renders them: memory stays flat however many there are.
    source::LoadOptions streaming = load_options;
    streaming.release = trainer::TrainJobSkeleton;
    streaming.release_prune_key = trainer::kSkeletonPrunedKey;
    streaming.release_prune_keep = trainer::kSkeletonKeptKey;
    manifests = source::LoadManifests(input.tree(), input.paths, streaming);
    pipeline_options.reload = [&input, load_options, &reload_failed](const source::Manifest& manifest) {
      Result<doc::Node> object = source::ReloadObject(input.tree(), manifest, load_options);
      // Every failure means the file is not what the first pass read.
      if (!object.ok()) reload_failed = true;
      return object;
    };
    if (cache && input.head_git != nullptr) batch::CacheEntries(manifests, *input.head_git, &*cache);
    // PATHs as entry points of a repository on disk (a pre-commit hook's
    // staged files): the runtimes they reference may live anywhere in it.
    if (!options.source.repo.empty() && options.source.rev.empty() && !options.source.paths.empty()) {
      AddRepositoryContext(options.source.repo, load_options, &manifests);
    }
    if (!write_objects && input.base_git != nullptr) {
      pipeline_options.previous_trainjobs = PreviousTrainJobs(input, nullptr, nullptr, {}, load_options, nullptr,
                                                            pipeline_options.target);
    }
  }
  if (cache) {
    Status saved = cache->Save();
    if (!saved.ok() && options.verbose) Note("inventory cache not saved: " + saved.error().ToString());
  }

  std::unique_ptr<batch::OutputTree> out_tree;
  std::optional<OutTreeCheck> out_check;
  if (write_objects && !options.out_dir.empty() && options.check_out) {
    std::string rerun = "`tjrender render";
    for (const std::string& p : options.source.paths) rerun += " " + p;
    out_check.emplace(options.out_dir, rerun + " --out " + options.out_dir + "`");
  } else if (write_objects && !options.out_dir.empty()) {
    Result<std::unique_ptr<batch::OutputTree>> opened_out = batch::OutputTree::Open(options.out_dir);
    if (!opened_out.ok()) {
      Report(opened_out.error());
      return kExitUsage;
    }
    out_tree = std::move(*opened_out);
  }

  std::size_t total_trainjobs = 0;
  for (const source::Manifest& m : manifests.manifests) {
    if (m.id.kind == "TrainJob") ++total_trainjobs;
  }
  Progress progress(total_trainjobs, Progress::Wanted(options.quiet));
  bool input_error = false;
  findings.BeginRun(manifests, input.config.ignore, &pipeline_options);

  Output output(options, write_objects, out_tree.get(), out_check ? &*out_check : nullptr);
  pipeline_options.finish = [&output, for_apply = options.for_apply](pipeline::TrainJobResult& result) {
    if (for_apply) pipeline::PrepareForApply(&result);
    output.Encode(result);
  };
  pipeline::PipelineSummary summary = pipeline::RenderManifests(
      manifests, pipeline_options, [&](pipeline::TrainJobResult&& result) {
        if (!result.diagnostics.empty()) progress.Finish();
        findings.AddResult(result);
        if (!output.Add(result)) input_error = true;
        progress.Tick();
      });
  progress.Finish();
  findings.AddChecked(summary.runtimes);
  flyte::FlyteOutcome flyte_outcome = flyte::RenderFlyte(manifests, flyte_options);
  findings.Add(flyte_outcome.diagnostics);
  for (const flyte::TaskResult& task : flyte_outcome.tasks) {
    report::ObjectRef ref = RefOf("flyteidl.core", "TaskTemplate", task.namespace_, task.name);
    findings.AddSubject(ref);
    findings.AddChecked(1);
    findings.AddRendered(task.objects.size());
    findings.Add(task.diagnostics, ref);
    if (!output.Add(task)) input_error = true;
  }
  if (options.verbose && !flyte_outcome.tasks.empty()) {
    Note("read " + std::to_string(flyte_outcome.tasks.size()) + " Flyte task(s)");
  }
  output.Flush();
  // Every input read and rendered; nothing of DIR changed yet.
  StopPoint("rendered");
  // A file that changed while it was read (a TrainJob rewritten in place and
  // caught empty, say) makes this run's result a mix of versions: an error,
  // and the output folder is left as it was (nothing pruned, nothing new).
  const std::vector<std::string> changed_inputs = input.disk_->ChangedSinceRead();
  for (const std::string& file : changed_inputs) {
    Diagnostic changed = AsInputError(MakeError(Location{InternSourceName(file)}, "",
                                                "changed while tjrender was reading it; run it again"));
    changed.rule = kRuleInputChanged;
    Report(changed);
  }
  if (!changed_inputs.empty() || reload_failed || input.disk_->SawChangeWhileReading()) {
    input_error = true;
    if (out_tree != nullptr) {
      Report(AsInputError(MakeError(Location{InternSourceName(options.out_dir)}, "",
                                    "left as it was: input files changed during the run")));
      out_tree.reset();
    }
  }
  if (out_tree != nullptr) {
    for (const batch::Entry& job : removed) {
      Result<std::string> file = batch::OutputFileFor(job.namespace_, job.name, output.Extension());
      if (file.ok()) out_tree->Remove(*file);
    }
    Result<batch::OutputStats> stats = out_tree->Commit(/*prune=*/!since);
    if (!stats.ok()) {
      Report(stats.error());
      input_error = true;
    } else if (options.verbose) {
      Note(options.out_dir + ": " + std::to_string(stats->written) + " file(s) written, " +
           std::to_string(stats->unchanged) + " unchanged, " + std::to_string(stats->removed) +
           " removed");
    }
  }
  for (const Diagnostic& d : summary.diagnostics) findings.Add(d, ObjectAt(manifests, d));
  if (out_check) findings.Add(out_check->Finish());
  if (!findings.Finish()) input_error = true;
  if (options.verbose) ReportCounts(manifests, summary);
  if (input_error || findings.has_input_errors()) return kExitUsage;
  return findings.has_errors() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
