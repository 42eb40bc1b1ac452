#include "app/render_repository.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <vector>

#include "app/flyte_admission.h"
#include "app/manifest_tree.h"
#include "app/out_check.h"
#include "app/previous_state.h"
#include "app/target_name.h"
#include "app/target_pin.h"
#include "base/file.h"
#include "base/stop_point.h"
#include "batch/affected.h"
#include "batch/inventory.h"
#include "batch/inventory_cache.h"
#include "batch/output_tree.h"
#include "flyte/render.h"
#include "json/json.h"
#include "pipeline/for_apply.h"
#include "pipeline/pipeline.h"
#include "pipeline/target.h"
#include "source/git_tree.h"
#include "trainer/skeleton.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::app {
namespace fs = std::filesystem;

namespace {

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

const Diagnostic* FirstError(const Diagnostics& diagnostics) {
  auto error = std::find_if(diagnostics.begin(), diagnostics.end(),
                            [](const Diagnostic& d) { return d.severity == Severity::kError; });
  return error == diagnostics.end() ? nullptr : &*error;
}

// Puts each TrainJob's objects where the request says as it arrives, so
// nothing is held longer than the pipeline's window.
class Output {
 public:
  Output(const RenderRequest& request, RenderSink& sink, Findings& findings, batch::OutputTree* tree,
         OutTreeCheck* check)
      : request_(request), sink_(sink), findings_(findings), tree_(tree), check_(check) {}

  bool writes() const { return request_.objects != ObjectsTo::kNowhere; }

  /// Serializes a result's objects in the output format into
  /// result.encoded, for PipelineOptions::finish (any thread).
  void Encode(pipeline::TrainJobResult& result) const {
    if (writes()) result.encoded = EncodeObjects(result.objects, request_.json);
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
    if (!buffer_.empty()) sink_.Data(buffer_);
    buffer_.clear();
  }

  std::string Extension() const { return request_.json ? ".json" : ".yaml"; }

 private:
  // `kind_suffix` tells a Flyte task's Pod (".pod") from a TrainJob's
  // objects ("") in the output folder. `encoded` is EncodeObjects(objects)
  // when a worker made it already. `refused_by`: the error that stopped an
  // object that renders nothing.
  bool Add(const std::string& namespace_, const std::string& name, const std::string& source_file,
           const std::vector<doc::Node>& objects, const std::string* encoded,
           const std::string& kind_suffix, batch::OutputKind kind, const Diagnostic* refused_by) {
    if (!writes()) return true;
    std::string made;
    const std::string& bytes = encoded != nullptr ? *encoded : (made = EncodeObjects(objects, request_.json));
    if (tree_ == nullptr && check_ == nullptr) {
      if (!objects.empty()) {
        if (wrote_any_ && !request_.json) buffer_ += "---\n";
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
      findings_.Add(error);
      return false;
    }
    if (check_ != nullptr) {
      const std::string path = (fs::path(request_.out_dir) / *file).string();
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
    // After a failed write DIR stays as it was (the caller drops the
    // tree): nothing more is written, and one error says why.
    if (write_failed_) return false;
    Status written = tree_->Put(*file, bytes);
    if (!written.ok()) {
      findings_.Add(AsInputError(written.take_error()));
      write_failed_ = true;
      return false;
    }
    return true;
  }

  const RenderRequest& request_;
  RenderSink& sink_;
  Findings& findings_;
  batch::OutputTree* tree_;
  bool write_failed_ = false;
  OutTreeCheck* check_;
  bool wrote_any_ = false;
  std::string buffer_;
};

// The propeller configuration file: one YAML (or JSON) document.
// Every document of the file: flyte::GivenConfigDocument reads them.
Result<std::vector<doc::Node>> ReadFlyteConfig(const std::string& path) {
  Result<std::string> text = ReadFile(path, std::size_t{64} << 20);
  if (!text.ok()) return text.take_error();
  return yaml::ReadStream(*text, path);
}

// --repo DIR with PATHs (a pre-commit hook's staged files): the repository
// around the entry points joins them. The runtimes their TrainJobs
// reference, so those resolve; and the TrainJobs of DIR that reference a
// runtime among the entry points, so a runtime change that breaks a
// TrainJob nobody staged is refused too. Files named as entry points and
// objects already loaded are not read twice; problems in DIR's other files
// (and its other runtimes) are not the entry points' findings.
void AddRepositoryContext(const std::string& repo, const std::vector<source::OutputFile>& outputs,
                          const source::LoadOptions& entry_options, source::ManifestSet* manifests,
                          RenderSink& sink) {
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
  source::ManifestSet repository = source::LoadManifests(ManifestTree(outputs), {repo}, options);
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
  sink.Note("--repo " + repo + ": " + std::to_string(runtimes) + " runtime(s) added that the PATHs' TrainJobs " +
            "reference, " + std::to_string(trainjobs) + " TrainJob(s) added that reference a runtime among the " +
            "PATHs, " + std::to_string(repository.diagnostics.size()) + " message(s) about its other files not shown");
}

}  // namespace

RenderOutcome RenderRepository(const RenderRequest& request, Findings& findings, RenderSink& sink) {
  RenderOutcome outcome;
  SourceRequest source_request = request.source;
  if (request.objects == ObjectsTo::kFolder || request.objects == ObjectsTo::kFolderCheck) {
    // The staging folders beside DIR (a killed run's too) are no inputs of
    // `render REPO --out REPO/rendered`.
    for (source::OutputFile& entries : batch::OutputFolderEntries(request.out_dir)) {
      source_request.outputs.push_back(std::move(entries));
    }
  }
  Result<std::unique_ptr<RenderSource>> opened = OpenRenderSource(source_request);
  if (!opened.ok()) {
    sink.Problem(opened.error());
    return outcome;
  }
  const RenderSource& input = **opened;

  // A Flyte target selects the Flyte version; Trainer keeps its own.
  std::string target = request.target;
  flyte::FlyteOptions flyte_options;
  if (std::optional<flyte::Version> version = flyte::VersionForTarget(target)) {
    flyte_options.version = *version;
    target.clear();
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.previous_trainjobs = request.cluster.trainjobs;
  pipeline_options.previous_jobsets = request.cluster.jobsets;
  pipeline_options.runtime_snapshots = request.cluster.runtime_snapshots;
  pipeline_options.priority_classes = request.cluster.priority_classes;
  pipeline_options.strict = request.strict;
  pipeline_options.admission = request.admission;
  pipeline_options.threads = request.threads;
  pipeline_options.keep_inputs = request.keep_inputs;
  if (target.empty() && input.config.target) {
    target = *input.config.target;
    sink.Note("target " + target + " from " + input.config_path);
  }
  // Neither says: the release the repository itself deploys, when it pins
  // one (target_pin.h).
  // Its warnings wait for the ignore rules (Findings::BeginRun).
  Diagnostics pin_warnings;
  // A pin that changed since BASE changes the target of every TrainJob, as
  // a changed .tjrender.yaml does.
  bool pin_unchanged_since = true;
  if (target.empty() && !input.config.target) {
    // PATHs as entry points of a repository on disk (a pre-commit hook's
    // staged files): its pins are the repository's, as `check .` finds them.
    std::vector<std::string> pin_paths = input.paths;
    if (!request.source.repo.empty() && request.source.rev.empty() && !request.source.paths.empty()) {
      pin_paths.push_back(request.source.repo);
    }
    PinnedTarget pinned =
        ChooseFromPins(FindTargetPins(input.tree(), pin_paths), std::string(pipeline::kDefaultTarget));
    if (input.base_git != nullptr) {
      pin_unchanged_since =
          ChooseFromPins(FindTargetPins(input.base_tree(), input.paths), std::string(pipeline::kDefaultTarget))
              .target == pinned.target;
    }
    pin_warnings = std::move(pinned.warnings);
    if (!pinned.target.empty()) {
      target = pinned.target;
      sink.Notice(pinned.note);
    }
  }
  if (!target.empty()) {
    Result<std::string> supported = SupportedTarget(target, ", flyte-v1.16, flyte-v2");
    if (!supported.ok()) {
      sink.Problem(supported.error());
      return outcome;
    }
    pipeline_options.target = *supported;
  }
  // The tables renders read are built while the inputs are read (joined
  // when it goes out of scope, whichever way the run ends).
  std::jthread prepare = pipeline::PrepareInBackground({pipeline_options.target}, request.threads);

  source::LoadOptions load_options;
  load_options.threads = request.threads;
  load_options.strict_inputs = request.strict_inputs;
  if (!request.default_namespace.empty()) {
    load_options.default_namespace = request.default_namespace;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = request.default_namespace;
  }
  for (const source::ObjectType& type : flyte::FlyteObjectTypes()) load_options.types.push_back(type);
  flyte::AcceptFlyteTasks(&load_options);
  flyte_options.strict = request.strict;
  flyte_options.keep_traces = request.keep_flyte_traces;
  flyte_options.default_namespace = load_options.default_namespace;
  if (!request.flyte_config_file.empty()) flyte_options.config_file = request.flyte_config_file;
  if (request.flyte_config) {
    flyte_options.config_documents = *request.flyte_config;
  } else if (!request.flyte_config_file.empty()) {
    Result<std::vector<doc::Node>> config = ReadFlyteConfig(request.flyte_config_file);
    if (!config.ok()) {
      sink.Problem(AsInputError(config.take_error()));
      return outcome;
    }
    flyte_options.config_documents = std::move(*config);
  }

  std::optional<batch::InventoryCache> cache;
  if (input.repo) {
    cache = batch::InventoryCache::Load(batch::InventoryCachePath(input.repo->git_dir),
                                        batch::CacheContext(load_options));
  }
  const bool since = input.base_git != nullptr && input.config_unchanged_since && pin_unchanged_since;
  if (input.base_git != nullptr && !input.config_unchanged_since) {
    sink.Note(input.config_path + " differs from " + request.source.since + ": every TrainJob is affected");
  } else if (input.base_git != nullptr && !since) {
    sink.Note("the Trainer release the repository pins differs from " + request.source.since +
              ": every TrainJob is affected");
  }
  source::ManifestSet manifests;
  std::vector<batch::Entry> removed;
  std::atomic<bool> reload_failed = false;
  if (since) {
    const std::string& repo_dir = input.repo->opened_from;
    batch::SinceSources sources{input.base_tree(), *input.base_git, input.tree(), input.head_git.get(),
                                input.paths, [&] {
                                  return source::ChangedPaths(repo_dir, request.source.since,
                                                              request.source.rev, input.paths, request.threads);
                                }};
    Result<batch::AffectedSet> found = batch::FindAffected(sources, load_options, &*cache);
    if (!found.ok()) {
      sink.Problem(found.error());
      return outcome;
    }
    batch::AffectedSet& affected = *found;
    if (request.validate_as_updates) {
      std::set<std::string> ids;
      for (const batch::Entry& job : affected.affected) ids.insert(job.id());
      pipeline_options.previous_trainjobs = PreviousTrainJobs(input, &affected.changed, &ids, affected.manifests,
                                                              load_options, &*cache, pipeline_options.target);
    }
    sink.Note(std::to_string(affected.affected.size()) + " of " + std::to_string(affected.total_trainjobs) +
              " TrainJob(s) affected since " + request.source.since + " (" +
              std::to_string(affected.changed.size()) + " changed path(s), " +
              std::to_string(affected.changed_runtimes.size()) + " changed runtime(s), " +
              std::to_string(affected.files_parsed) + " file(s) parsed)");
    if (request.list_affected) {
      for (const Diagnostic& d : affected.manifests.diagnostics) sink.Problem(d);
      std::string listing;
      for (const batch::Entry& job : affected.affected) listing += job.id() + "\n";
      sink.Data(listing);
      (void)cache->Save();
      outcome.end = RenderEnd::kListed;
      outcome.input_error = affected.manifests.has_errors();
      return outcome;
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
      // A file that is not what the first pass read; a refusal of the same
      // bytes (a limit) is that TrainJob's error only.
      if (!object.ok() && object.error().rule == kRuleInputChanged) reload_failed = true;
      return object;
    };
    if (cache && input.head_git != nullptr) batch::CacheEntries(manifests, *input.head_git, &*cache);
    // PATHs as entry points of a repository on disk (a pre-commit hook's
    // staged files): the runtimes they reference may live anywhere in it.
    if (!request.source.repo.empty() && request.source.rev.empty() && !request.source.paths.empty()) {
      AddRepositoryContext(request.source.repo, request.source.outputs, load_options, &manifests, sink);
    }
    if (request.validate_as_updates && input.base_git != nullptr) {
      pipeline_options.previous_trainjobs =
          PreviousTrainJobs(input, nullptr, nullptr, {}, load_options, nullptr, pipeline_options.target);
    }
  }
  if (cache) {
    Status saved = cache->Save();
    if (!saved.ok()) sink.Note("inventory cache not saved: " + saved.error().ToString());
  }

  std::unique_ptr<batch::OutputTree> out_tree;
  std::optional<OutTreeCheck> out_check;
  if (request.objects == ObjectsTo::kFolderCheck) {
    out_check.emplace(request.out_dir, request.rerun_command);
  } else if (request.objects == ObjectsTo::kFolder) {
    batch::OutputOptions out_options;
    out_options.lock_timeout_seconds = request.out_lock_timeout_seconds;
    Result<std::unique_ptr<batch::OutputTree>> opened_out = batch::OutputTree::Open(request.out_dir, out_options);
    if (!opened_out.ok()) {
      sink.Problem(opened_out.error());
      return outcome;
    }
    out_tree = std::move(*opened_out);
    for (const Diagnostic& warning : out_tree->TakeWarnings()) sink.Problem(warning);
  }

  std::size_t total_trainjobs = 0;
  for (const source::Manifest& m : manifests.manifests) {
    if (m.id.kind == "TrainJob") ++total_trainjobs;
  }
  outcome.end = RenderEnd::kRendered;
  sink.ProgressStart(total_trainjobs);
  findings.BeginRun(manifests, input.config.ignore, &pipeline_options);
  findings.Add(pin_warnings);

  Output output(request, sink, findings, out_tree.get(), out_check ? &*out_check : nullptr);
  pipeline_options.finish = [&output, for_apply = request.for_apply](pipeline::TrainJobResult& result) {
    if (for_apply) pipeline::PrepareForApply(&result);
    output.Encode(result);
  };
  pipeline::PipelineSummary summary =
      pipeline::RenderManifests(manifests, pipeline_options, [&](pipeline::TrainJobResult&& result) {
        sink.Rendered(result);
        if (!result.diagnostics.empty()) sink.ProgressPause();
        findings.AddResult(result);
        if (!output.Add(result)) outcome.input_error = true;
        sink.ProgressTick();
      });
  sink.ProgressPause();
  findings.AddChecked(summary.runtimes);
  if (request.admission) WireFlyteAdmission(&flyte_options);
  flyte::FlyteOutcome flyte_outcome = flyte::RenderFlyte(manifests, flyte_options);
  findings.Add(flyte_outcome.diagnostics);
  for (const flyte::TaskResult& task : flyte_outcome.tasks) {
    sink.Rendered(task);
    report::ObjectRef ref = RefOf("flyteidl.core", "TaskTemplate", task.namespace_, task.name);
    findings.AddSubject(ref);
    findings.AddChecked(1);
    findings.AddRendered(task.objects.size());
    findings.Add(task.diagnostics, ref);
    if (!output.Add(task)) outcome.input_error = true;
  }
  if (!flyte_outcome.tasks.empty()) {
    sink.Note("read " + std::to_string(flyte_outcome.tasks.size()) + " Flyte task(s)");
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
                                                "changed after tjrender read it (the file is no longer what was "
                                                "rendered, so this run mixes two versions of it): run tjrender "
                                                "again once nothing writes to it; if something writes it on every "
                                                "run (a `| tee` into the folder being read), write that output "
                                                "elsewhere"));
    changed.rule = kRuleInputChanged;
    sink.Problem(changed);
  }
  if (!changed_inputs.empty() || reload_failed || input.disk_->SawChangeWhileReading()) {
    outcome.input_error = true;
    if (out_tree != nullptr) {
      sink.Problem(AsInputError(MakeError(Location{InternSourceName(request.out_dir)}, "",
                                          "left as it was: input files changed during the run")));
      out_tree.reset();
    }
  }
  for (const Diagnostic& d : summary.diagnostics) findings.Add(d, ObjectAt(manifests, d));
  // A run with input errors (a TrainJob that does not parse, a file not
  // written) changes nothing in DIR: pruning the broken TrainJob's file or
  // swapping in a tree of half-written files would ship the error.
  if (out_tree != nullptr && (findings.has_input_errors() || outcome.input_error)) {
    const std::size_t errors = std::max<std::size_t>(findings.input_errors(), 1);
    sink.Notice("--out " + request.out_dir + " left unchanged: " + std::to_string(errors) + " error" +
                (errors == 1 ? "" : "s") + " above (an input that cannot be read or a file that cannot be written)");
    out_tree.reset();
  }
  if (out_tree != nullptr) {
    for (const batch::Entry& job : removed) {
      Result<std::string> file = batch::OutputFileFor(job.namespace_, job.name, output.Extension());
      if (file.ok()) out_tree->Remove(*file);
    }
    Result<batch::OutputStats> stats = out_tree->Commit(/*prune=*/!since);
    for (const Diagnostic& warning : out_tree->TakeWarnings()) sink.Problem(warning);
    if (!stats.ok()) {
      // Counted in the summary line, as every error is.
      findings.Add(AsInputError(stats.error()));
      outcome.input_error = true;
      sink.Notice("--out " + request.out_dir + " left unchanged: it could not be written");
    } else {
      sink.Note(request.out_dir + ": " + std::to_string(stats->written) + " file(s) written, " +
                std::to_string(stats->unchanged) + " unchanged, " + std::to_string(stats->removed) + " removed");
    }
    out_tree.reset();  // the staging folder removed, the lock released
  }
  if (out_check) findings.Add(out_check->Finish());
  outcome.files = manifests.files.size();
  outcome.train_jobs = summary.train_jobs;
  outcome.runtimes = summary.runtimes;
  outcome.skipped_files = manifests.skipped_files.size();
  outcome.ignored_kinds = manifests.ignored;
  return outcome;
}

}  // namespace tjr::app
