#include "app/diff_revisions.h"

#include <filesystem>
#include <memory>
#include <set>
#include <thread>

#include "app/render_config.h"
#include "app/render_source.h"
#include "app/target_name.h"
#include "app/target_pin.h"
#include "batch/affected.h"
#include "batch/inventory_cache.h"
#include "diff/base_side.h"
#include "diff/revision.h"
#include "pipeline/pipeline.h"
#include "pipeline/target.h"
#include "source/git_tree.h"
#include "source/loader.h"
#include "source/parse_cache.h"

namespace tjr::app {
namespace {

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
std::jthread PrepareTargets(const DiffRequest& request, const std::optional<std::string>& base,
                            const std::optional<std::string>& head) {
  std::vector<std::string> names;
  for (const std::optional<std::string>* side : {&base, &head}) {
    names.push_back(!request.target.empty() ? request.target : side->value_or(std::string(pipeline::kDefaultTarget)));
  }
  return pipeline::PrepareInBackground(std::move(names), request.threads);
}

// A side whose .tjrender.yaml names no target renders for the release its
// repository pins, as `check` and `render` choose it (target_pin.h); a
// conflict or an unemulated pin leaves the default, said in a note.
void PinTarget(const source::Tree& tree, const std::vector<std::string>& paths, const std::string& label,
               std::optional<std::string>* target, DiffSink& sink) {
  if (*target) return;
  PinnedTarget pinned = ChooseFromPins(FindTargetPins(tree, paths), std::string(pipeline::kDefaultTarget));
  for (const Diagnostic& warning : pinned.warnings) sink.Note(label + ": " + warning.message);
  if (pinned.target.empty()) return;
  *target = pinned.target;
  sink.Notice(label + ": " + pinned.note);
}

bool IsFolder(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

Result<Inputs> ReadFolders(const DiffRequest& request, const source::LoadOptions& load, DiffSink& sink) {
  if (!request.paths.empty() || request.all || !request.repo.empty()) {
    return AsInputError(MakeError(Location{}, "", "--path, --all and --repo are for Git revisions, not folders"));
  }
  Inputs inputs;
  const std::string& head = request.head.empty() ? "." : request.head;
  // "old/" names the folder "old" in labels ("old/JobSet/...").
  auto label = [](std::string name) {
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    return name;
  };
  inputs.base_label = label(request.base);
  inputs.head_label = label(head);
  for (bool at_base : {true, false}) {
    Result<std::unique_ptr<RenderSource>> opened =
        OpenRenderSource(SourceRequest{{at_base ? request.base : head}, "", "", "", nullptr, request.outputs});
    if (!opened.ok()) return opened.take_error();
    const RenderSource& source = **opened;
    (at_base ? inputs.base : inputs.head) = source::LoadManifests(source.tree(), source.paths, load);
    std::optional<std::string>& target = at_base ? inputs.base_target : inputs.head_target;
    target = source.config.target;
    if (request.target.empty()) {
      PinTarget(source.tree(), source.paths, at_base ? inputs.base_label : inputs.head_label, &target, sink);
    }
  }
  return inputs;
}

Result<Inputs> ReadRevisions(const DiffRequest& request, const source::LoadOptions& load_options, DiffSink& sink) {
  // A file both revisions hold unchanged is parsed once.
  source::ParseCache parsed;
  source::LoadOptions load = load_options;
  load.parse_cache = &parsed;
  const std::string& head = request.head;
  // As `git diff`: the whole repository unless paths are given, from any
  // folder of it.
  std::vector<std::string> paths = request.paths;
  if (paths.empty()) {
    Result<source::GitRepository> repo = source::FindGitRepository(request.repo.empty() ? "." : request.repo);
    if (!repo.ok()) {
      // A repository found but unusable (a damaged pack, a .git file
      // leading nowhere) says so at its file.
      const std::string opened = request.repo.empty() ? "." : request.repo;
      if (repo.error().location.known() && *repo.error().location.file != opened) return repo.take_error();
      return AsInputError(MakeError(repo.error().location, "", "'" + request.base +
                                                                   "' is no folder and no Git repository holds " +
                                                                   (request.repo.empty() ? "this folder" : request.repo) +
                                                                   " (" + repo.error().message + ")"));
    }
    if (!repo->workdir.empty()) paths.push_back(repo->workdir);
  }
  Result<std::unique_ptr<RenderSource>> opened =
      OpenRenderSource(SourceRequest{paths, head, request.base, request.repo, nullptr, request.outputs});
  if (!opened.ok()) return opened.take_error();
  const RenderSource& source = **opened;
  Inputs inputs;
  inputs.base_label = request.base;
  inputs.head_label = head.empty() ? "worktree" : head;
  inputs.base_is_revision = true;
  inputs.head_target = source.config.target;
  Result<RepoConfig> base_config = ReadRepoConfig(*source.base_git, source.config_path);
  if (!base_config.ok()) return base_config.take_error();
  inputs.base_target = base_config->target;
  bool pins_agree = true;
  if (request.target.empty()) {
    PinTarget(source.tree(), source.paths, inputs.head_label, &inputs.head_target, sink);
    PinTarget(source.base_tree(), source.paths, inputs.base_label, &inputs.base_target, sink);
    // A pin that changed changes every TrainJob's target, as a changed
    // .tjrender.yaml does.
    pins_agree = inputs.head_target == inputs.base_target || !source.config_unchanged_since;
  }
  inputs.prepare = PrepareTargets(request, inputs.base_target, inputs.head_target);

  if (request.all || !source.config_unchanged_since || !pins_agree) {
    if (!pins_agree && !request.all) {
      sink.Note("the pinned Trainer release differs: every TrainJob is compared");
    } else if (!request.all) {
      sink.Note(source.config_path + " differs: every TrainJob is compared");
    }
    inputs.head = source::LoadManifests(source.tree(), source.paths, load);
    inputs.base = source::LoadManifests(source.base_tree(), source.paths, load);
    return inputs;
  }
  const source::GitRepository& repo = *source.repo;
  const std::string& repo_dir = repo.opened_from;
  batch::InventoryCache cache =
      batch::InventoryCache::Load(batch::InventoryCachePath(repo.git_dir), batch::CacheContext(load));
  batch::SinceSources sources{source.base_tree(), *source.base_git, source.tree(), source.head_git.get(),
                              source.paths, [&] {
                                return source::ChangedPaths(repo_dir, request.base, head, source.paths,
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
  if (!saved.ok()) sink.Note("inventory cache not saved: " + saved.error().ToString());
  sink.Note(std::to_string(inputs.head_only->size()) + " of " + std::to_string(affected.total_trainjobs) +
       " TrainJob(s) affected, " + std::to_string(affected.removed.size()) + " removed");
  return inputs;
}

}  // namespace

DiffOutcome DiffRevisions(const DiffRequest& request, Findings& findings, DiffSink& sink) {
  DiffOutcome outcome;
  source::LoadOptions load_options;
  load_options.threads = request.threads;
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = request.strict;
  pipeline_options.admission = request.admission;
  pipeline_options.threads = request.threads;
  if (!request.default_namespace.empty()) {
    load_options.default_namespace = request.default_namespace;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = request.default_namespace;
  }
  // Two folders, or revisions of one repository.
  const bool folders = IsFolder(request.base);
  if (!folders && !request.head.empty() && IsFolder(request.head)) {
    sink.Problem(
        AsInputError(MakeError(Location{}, "", "BASE and HEAD must both be folders or both be Git revisions")));
    return outcome;
  }
  Result<Inputs> read = folders ? ReadFolders(request, load_options, sink) : ReadRevisions(request, load_options, sink);
  if (!read.ok()) {
    sink.Problem(read.error());
    return outcome;
  }
  Inputs& inputs = *read;

  // Each revision renders for its own target (.tjrender.yaml), unless one
  // is given.
  pipeline::PipelineOptions base_options = pipeline_options;
  pipeline::PipelineOptions head_options = pipeline_options;
  if (!request.target.empty()) inputs.base_target = inputs.head_target = request.target;
  if (inputs.base_target) base_options.target = *inputs.base_target;
  if (inputs.head_target) head_options.target = *inputs.head_target;
  for (std::string* target : {&base_options.target, &head_options.target}) {
    Result<std::string> supported = SupportedTarget(*target);
    if (!supported.ok()) {
      sink.Problem(supported.error());
      return outcome;
    }
    *target = *supported;
  }

  diff::RevisionRender base_render =
      diff::RenderRevision(inputs.base, base_options, inputs.base_only ? &*inputs.base_only : nullptr);
  head_options.previous_trainjobs = diff::StoredTrainJobs(inputs.base, base_options.target, head_options.target);
  // TrainJobs BASE created keep the runtime snapshot their controller took.
  head_options.runtime_snapshots = diff::RuntimeSnapshots(base_render);
  diff::RevisionRender head_render =
      diff::RenderRevision(inputs.head, head_options, inputs.head_only ? &*inputs.head_only : nullptr);
  // A Git revision names its files as the working tree does; BASE's say
  // which revision they are from.
  if (inputs.base_is_revision) diff::QualifyFiles(&base_render, inputs.base_label + ":");

  diff::CompareOptions compare;
  compare.base_label = inputs.base_label;
  compare.head_label = inputs.head_label;
  compare.context = request.context;
  compare.threads = request.threads;
  outcome.result = diff::Compare(base_render, head_render, compare);
  outcome.base_label = inputs.base_label;
  outcome.head_label = inputs.head_label;
  outcome.compared = true;

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
  return outcome;
}

}  // namespace tjr::app
