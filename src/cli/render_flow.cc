// `tjrender render` and `tjrender check`: the manifest set through the
// pipeline, objects to stdout or a folder, findings to stderr.
#include "cli/render_flow.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <optional>
#include <set>

#include "batch/affected.h"
#include "batch/inventory_cache.h"
#include "batch/output_tree.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/previous_state.h"
#include "cli/progress.h"
#include "cli/render_config.h"
#include "cli/render_source.h"
#include "json/json.h"
#include "pipeline/pipeline.h"
#include "source/git_tree.h"
#include "source/loader.h"
#include "yaml/writer.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kRenderUsage[] =
    "usage: tjrender render [PATH...] [--rev REV] [--since BASE [--list-affected]] [--repo DIR]\n"
    "                       [--target trainer-v2.1|trainer-v2.2|trainer-v2.3] [-o -|--out DIR]\n"
    "                       [--format yaml|json] [--namespace NS] [--strict] [--jobs N] [--quiet]\n"
    "                       [--verbose]\n\n"
    "Renders every TrainJob under PATH (files or folders of *.yaml, *.yml, *.json; - is stdin)\n"
    "against its (Cluster)TrainingRuntime as the Kubeflow Trainer controller would: -o - prints\n"
    "every object as one stream, --out DIR writes DIR/<namespace>/<trainjob>.yaml (and removes\n"
    "the files of TrainJobs that are gone). --rev reads a Git revision without a checkout;\n"
    "--since renders only the TrainJobs whose file or runtime changed since BASE. Errors go to\n"
    "stderr as FILE:LINE:COL: error: MESSAGE. Exit 0 clean, 1 validation errors, 2 usage or\n"
    "input errors. A .tjrender.yaml in the first PATH (or here) may set `target:`, `include:`\n"
    "and `exclude:`.\n";

const char kCheckUsage[] =
    "usage: tjrender check [PATH...] [--rev REV] [--since BASE [--list-affected]] [--repo DIR]\n"
    "                      [--target trainer-v2.1|trainer-v2.2|trainer-v2.3] [--namespace NS]\n"
    "                      [--strict] [--jobs N] [--quiet] [--verbose]\n\n"
    "Validates every TrainJob under PATH as `tjrender render` does, without writing objects.\n"
    "With --since BASE, TrainJobs that BASE has too are validated as updates of them.\n";

struct FlowOptions {
  std::string target;
  std::string output;
  std::string out_dir;
  std::string format = "yaml";
  std::string namespace_;
  bool strict = false;
  bool verbose = false;
  bool quiet = false;
  bool list_affected = false;
  unsigned jobs = 0;
  SourceRequest source;
};

void AppendObject(const doc::Node& object, bool json, std::string* out) {
  if (json) {
    *out += json::Write(object, true);
  } else {
    yaml::Write(object, out);
  }
}

// Writes each TrainJob's objects as it arrives, so nothing is held longer
// than the pipeline's window.
class Output {
 public:
  Output(const FlowOptions& options, bool write, batch::OutputTree* tree)
      : options_(options), write_(write), tree_(tree) {}

  /// Returns false when a file could not be written (reported).
  bool Add(const pipeline::TrainJobResult& result) {
    if (!write_) return true;
    const bool json = options_.format == "json";
    if (tree_ == nullptr) {
      for (const doc::Node& object : result.objects) {
        if (wrote_any_ && !json) buffer_ += "---\n";
        AppendObject(object, json, &buffer_);
        wrote_any_ = true;
      }
      if (buffer_.size() >= (std::size_t{1} << 20)) Flush();
      return true;
    }
    Result<std::string> file = batch::OutputFileFor(result.id.namespace_, result.id.name, Extension());
    if (!file.ok()) {
      Diagnostic error = file.take_error();
      error.location = Location{InternSourceName(result.file)};
      Report(error);
      return false;
    }
    // A TrainJob that no longer renders leaves no stale output behind.
    if (result.objects.empty()) {
      tree_->Remove(*file);
      return true;
    }
    std::string bytes;
    for (std::size_t i = 0; i < result.objects.size(); ++i) {
      if (i > 0 && !json) bytes += "---\n";
      AppendObject(result.objects[i], json, &bytes);
    }
    Status written = tree_->Put(*file, bytes);
    if (!written.ok()) {
      Report(AsInputError(written.take_error()));
      return false;
    }
    return true;
  }

  void Flush() {
    if (!buffer_.empty()) WriteStdout(buffer_);
    buffer_.clear();
  }

  std::string Extension() const { return options_.format == "json" ? ".json" : ".yaml"; }

 private:
  const FlowOptions& options_;
  bool write_;
  batch::OutputTree* tree_;
  bool wrote_any_ = false;
  std::string buffer_;
};

std::optional<int> ParseFlowOptions(const std::vector<std::string>& args, bool write,
                                    FlowOptions* options) {
  std::optional<unsigned> threads;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "target", po::value(&options->target), "emulated Trainer version (trainer-v2.1, trainer-v2.2, trainer-v2.3; default trainer-v2.3)")(
      "namespace", po::value(&options->namespace_),
      "namespace of objects written without one (default: default)")(
      "strict", po::bool_switch(&options->strict), "treat warnings as errors")(
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
      "the Git repository (default: the one holding the current folder)");
  if (write) {
    named.add_options()("output,o", po::value(&options->output), "- prints every object to stdout")(
        "out", po::value(&options->out_dir), "write DIR/<namespace>/<trainjob>.yaml")(
        "format", po::value(&options->format), "yaml (default) or json");
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
  if (!options->output.empty() && options->output != "-") {
    ReportUsageError("-o takes only - (stdout); use --out DIR to write files");
    return kExitUsage;
  }
  if (!options->output.empty() && !options->out_dir.empty()) {
    ReportUsageError("-o - and --out DIR cannot be used together");
    return kExitUsage;
  }
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
}

// What the cache's entries depend on besides the bytes of a file.
std::string CacheContext(const source::LoadOptions& options) {
  return options.default_namespace + (options.enforce_namespace ? "\tenforced" : "\tdefault");
}

}  // namespace

int RunRenderFlow(const std::vector<std::string>& args, bool write_objects) {
  FlowOptions options;
  if (auto exit_code = ParseFlowOptions(args, write_objects, &options)) return *exit_code;
  SetVerbose(options.verbose);

  Result<std::unique_ptr<RenderSource>> opened = OpenRenderSource(options.source);
  if (!opened.ok()) {
    Report(opened.error());
    return kExitUsage;
  }
  const RenderSource& input = **opened;

  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = options.strict;
  pipeline_options.threads = options.jobs;
  if (options.target.empty() && input.config.target) {
    options.target = *input.config.target;
    Note("target " + options.target + " from " + input.config_path);
  }
  if (!options.target.empty()) pipeline_options.target = options.target;
  const std::vector<std::string>& targets = pipeline::SupportedTargets();
  if (std::find(targets.begin(), targets.end(), pipeline_options.target) == targets.end()) {
    std::string list;
    for (const std::string& t : targets) list += (list.empty() ? "" : ", ") + t;
    ReportUsageError("unsupported target '" + pipeline_options.target + "' (supported: " + list +
                     ")");
    return kExitUsage;
  }

  source::LoadOptions load_options;
  load_options.threads = options.jobs;
  if (!options.namespace_.empty()) {
    load_options.default_namespace = options.namespace_;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = options.namespace_;
  }

  std::optional<batch::InventoryCache> cache;
  if (input.repo) {
    cache = batch::InventoryCache::Load(batch::InventoryCachePath(input.repo->git_dir),
                                        CacheContext(load_options));
  }
  const bool since = input.base_git != nullptr && input.config_unchanged_since;
  if (input.base_git != nullptr && !since) {
    Note(input.config_path + " differs from " + options.source.since +
         ": every TrainJob is affected");
  }
  source::ManifestSet manifests;
  std::vector<batch::Entry> removed;
  if (since) {
    const std::string repo_dir = input.repo->workdir.empty() ? input.repo->git_dir : input.repo->workdir;
    Result<std::vector<std::string>> changed = source::ChangedPaths(
        repo_dir, options.source.since, options.source.rev, input.paths);
    if (!changed.ok()) {
      Report(changed.error());
      return kExitUsage;
    }
    batch::SinceSources sources{input.base_tree(), *input.base_git, input.tree(),
                                input.head_git.get(), input.paths, std::move(*changed)};
    batch::AffectedSet affected = batch::FindAffected(sources, load_options, &*cache);
    if (!write_objects) {  // check --since: updates of BASE's TrainJobs
      std::set<std::string> ids;
      for (const batch::Entry& job : affected.affected) ids.insert(job.id());
      pipeline_options.previous_trainjobs = PreviousTrainJobs(input, &sources.changed, &ids, affected.manifests,
                                                              load_options, &*cache, pipeline_options.target);
    }
    if (options.verbose) {
      Note(std::to_string(affected.affected.size()) + " of " +
           std::to_string(affected.total_trainjobs) + " TrainJob(s) affected since " +
           options.source.since + " (" + std::to_string(sources.changed.size()) +
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
    manifests = source::LoadManifests(input.tree(), input.paths, load_options);
    if (cache && input.head_git != nullptr) batch::CacheEntries(manifests, *input.head_git, &*cache);
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
  if (write_objects && !options.out_dir.empty()) {
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
  bool findings = false;
  auto report = [&](const Diagnostic& d) {
    if (d.severity == Severity::kNote) {
      if (!options.verbose) return;
    }
    progress.Finish();
    Report(d);
    if (d.severity == Severity::kError) {
      (d.category == Category::kInput ? input_error : findings) = true;
    }
  };
  for (const Diagnostic& d : manifests.diagnostics) report(d);

  Output output(options, write_objects, out_tree.get());
  pipeline::PipelineSummary summary = pipeline::RenderManifests(
      manifests, pipeline_options, [&](pipeline::TrainJobResult&& result) {
        for (const Diagnostic& d : result.diagnostics) report(d);
        if (!output.Add(result)) input_error = true;
        progress.Tick();
      });
  progress.Finish();
  output.Flush();
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
  for (const Diagnostic& d : summary.diagnostics) report(d);
  if (options.verbose) ReportCounts(manifests, summary);
  if (input_error) return kExitUsage;
  return findings ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
