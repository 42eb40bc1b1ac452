#include "integrate/argocd_generate.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include "app/flyte_admission.h"
#include "app/integration_render.h"
#include "app/manifest_tree.h"
#include "app/render_config.h"
#include "app/target_name.h"
#include "batch/output_tree.h"
#include "doc/objects.h"
#include "flyte/render.h"
#include "pipeline/pipeline.h"
#include "source/document_class.h"
#include "source/helm_chart.h"
#include "source/confined_tree.h"
#include "source/loader.h"
#include "source/walk.h"
#include "yaml/reader.h"

namespace tjr::integrate {
namespace {

namespace fs = std::filesystem;

Diagnostic UsageError(std::string message) {
  return AsInputError(MakeError(Location{}, "", std::move(message)));
}

// The repository root in the plugin's copy: the working directory minus
// ARGOCD_APP_SOURCE_PATH (the application's path in the repository, as Argo
// CD's cmp-server runs the command in it), which must lead back from there to
// the working directory. Otherwise the root would be a folder outside the copy
// (a path deeper than the working directory, `..`, or a copy that does not
// start at the repository root): refused, since everything read is confined
// to the root.
struct RepositoryRoot {
  fs::path root;
  std::string source_path;  ///< the application's path, normal ("" at the root)
};

Result<RepositoryRoot> FindRepositoryRoot(const std::string& source_path) {
  std::error_code error;
  const fs::path cwd = fs::current_path(error);
  if (error) return UsageError("cannot read the working directory: " + error.message());
  std::string app = fs::path(source_path).lexically_normal().generic_string();
  while (app.size() > 1 && app.back() == '/') app.pop_back();
  if (app.empty() || app == ".") return RepositoryRoot{cwd, ""};
  auto refuse = [&](const std::string& why) -> Diagnostic {
    return AsInputError(
        MakeError(Location{InternSourceName("ARGOCD_APP_SOURCE_PATH")}, "", "'" + source_path + "' " + why));
  };
  if (fs::path(app).is_absolute() || app == ".." || app.rfind("../", 0) == 0) {
    return refuse("is no path inside the repository: Argo CD sends the Application's spec.source.path, relative to "
                  "the repository root and without `..`");
  }
  // Counted by hand: std::distance over path iterators is not their count in
  // libstdc++ 12.
  auto components = [](const fs::path& path) {
    std::size_t count = 0;
    for (auto it = path.begin(); it != path.end(); ++it) ++count;
    return count;
  };
  const std::size_t depth = components(fs::path(app));
  const std::size_t above = components(cwd.relative_path());
  if (depth > above) {
    return refuse("is " + std::to_string(depth) + " folders deep, deeper than the working directory " + cwd.string() +
                  ": the repository root it leads back to would lie above the file system's root");
  }
  fs::path root = cwd;
  for (auto i = depth; i > 0; --i) root = root.parent_path();
  if (!fs::equivalent(root / app, cwd, error)) {
    return refuse("does not lead back to the working directory " + cwd.string() + " from " + root.string() +
                  ", so the repository root is unknown (Argo CD's --plugin-use-manifest-generate-paths ships only the "
                  "common root of the manifest-generate-paths, without the folders above it)");
  }
  return RepositoryRoot{root, app};
}

// The plugin's copy of the repository, named as in the repository: paths
// are relative to its root (the working directory minus
// ARGOCD_APP_SOURCE_PATH), so findings say `ml/runtimes/torch.yaml`, not the
// cmp-server's temporary folder, which is new on every run. Nothing outside
// the root is listed or read (source::ConfinedTree): a repository is hostile
// input in Argo CD's model, and a link out of it would carry files of the
// repo server into the manifests (a runtime into a JobSet or the runtime
// snapshot ConfigMap) or into stderr, which the UI shows. Folders below
// the ones named that hold tjrender's output index are left out: a rendered
// tree's JobSets carry ownerReferences without uid, which the API server
// refuses, and they would be applied beside the TrainJobs they came from.
class RepositoryTree final : public source::Tree {
 public:
  explicit RepositoryTree(const fs::path& root) : confined_(files_, root.string(), "the repository") {}

  Result<source::EntryType> Stat(const std::string& path) const override { return confined_.Stat(path); }
  Result<std::vector<source::DirEntry>> List(const std::string& path) const override {
    Result<std::vector<source::DirEntry>> entries = confined_.List(path);
    if (!entries.ok()) return entries;
    std::erase_if(*entries, [&](const source::DirEntry& entry) {
      if (entry.type != source::EntryType::kDirectory) return false;
      const std::string folder = (fs::path(path) / entry.name).lexically_normal().generic_string();
      Result<source::EntryType> index = confined_.Stat(folder + "/" + batch::kOutputIndexFile);
      if (!index.ok() || *index != source::EntryType::kFile) return false;
      rendered_trees_.push_back(folder);
      return true;
    });
    return entries;
  }
  Result<std::string> Resolve(const std::string& path) const override { return confined_.Resolve(path); }
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override {
    return confined_.Read(path, max_bytes);
  }
  /// Ok when `path` stays inside the repository, else the refusal.
  Status Check(const std::string& path) const { return confined_.Check(path); }

  /// The repository path of `path`, a path from the working directory.
  std::string Named(const std::string& path, const std::string& source_path) const {
    if (fs::path(path).is_absolute() || source_path.empty()) return path;
    std::string named = (fs::path(source_path) / path).lexically_normal().generic_string();
    while (named.size() > 1 && named.back() == '/') named.pop_back();  // "ml/trainjobs/" as given
    return named;
  }
  /// The rendered trees left out so far, each once, in the order found.
  std::vector<std::string> RenderedTrees() const {
    std::vector<std::string> out;
    for (const std::string& tree : rendered_trees_) {
      if (std::find(out.begin(), out.end(), tree) == out.end()) out.push_back(tree);
    }
    return out;
  }

 private:
  app::ManifestTree files_;  // without .tjrender.yaml
  source::ConfinedTree confined_;
  mutable std::vector<std::string> rendered_trees_;
};

// Every object under `paths` a cluster would take, in the loader's file
// order, Lists flattened: not what the loader skips (documents that are no
// object, tool configuration such as a Kustomization, Helm templates).
// Files that cannot be read or parsed are reported by the loader already.
std::vector<doc::Node> AllObjects(const source::Tree& tree, const std::vector<std::string>& paths,
                                  const std::vector<source::ObjectType>& kept) {
  std::vector<doc::Node> objects;
  source::ExpandedPaths expanded = source::ExpandPaths(tree, paths, {".json", ".yaml", ".yml"});
  for (const source::InputFile& file : expanded.files) {
    Result<std::string> text = tree.Read(file.read_path, std::size_t{64} << 20);
    if (!text.ok()) continue;
    if (!file.chart.empty() && source::HasTemplateActions(*text)) continue;
    Result<std::vector<doc::Node>> documents = yaml::ReadStream(*text, file.name);
    if (!documents.ok()) continue;
    for (const doc::Node& document : *documents) {
      if (document.is_null() || source::ClassifyDocument(document, kept).kind != source::DocumentClass::kObject) {
        continue;
      }
      Result<std::vector<doc::Node>> flat = doc::FlattenLists({document});
      if (!flat.ok()) continue;
      for (doc::Node& object : *flat) {
        if (!source::IsConfigOnly(object)) objects.push_back(std::move(object));
      }
    }
  }
  return objects;
}

// An application folder Argo CD would build with Helm or kustomize: the
// plugin was chosen by name, so say what it does there.
void WarnOfOtherBuilders(const source::Tree& tree, ArgocdSink& sink) {
  for (const char* file : {source::kChartFile, "kustomization.yaml", "kustomization.yml", "Kustomization"}) {
    Result<source::EntryType> type = tree.Stat(file);
    if (!type.ok() || *type != source::EntryType::kFile) continue;
    const bool chart = file == std::string(source::kChartFile);
    Diagnostic notice;
    notice.severity = Severity::kWarning;
    notice.message = std::string("the application folder holds ") + file +
                     ": tjrender reads its files as plain manifests and does not run " +
                     (chart ? "helm" : "kustomize") + " (Argo CD's own " + (chart ? "Helm" : "kustomize") +
                     " support does, when the Application does not name the tjrender plugin)";
    sink.Notice(notice);
    return;
  }
}

}  // namespace

ArgocdOutcome ArgocdGenerate(const ArgocdRequest& request, app::Findings& findings, ArgocdSink& sink) {
  ArgocdOutcome outcome;
  const ArgoSettings& settings = request.settings;
  if (std::string missing = MissingClusterApi(settings); !missing.empty()) {
    outcome.refused = UsageError(missing);
    return outcome;
  }
  Result<RepositoryRoot> root = FindRepositoryRoot(settings.source_path);
  if (!root.ok()) {
    outcome.refused = root.take_error();
    return outcome;
  }
  RepositoryTree tree(root->root);
  std::vector<std::string> app_paths;
  for (const std::string& path : request.paths) {
    app_paths.push_back(tree.Named(path, root->source_path));
    if (Status inside = tree.Check(app_paths.back()); !inside.ok()) {
      outcome.refused = inside.take_error();
      return outcome;
    }
  }
  // Looked up from the application's folder up to the repository root (the
  // copy has no .git), never above it.
  Result<app::RepoConfig> config = app::ReadRepoConfig(tree, app::RepoConfigPath(tree, app_paths));
  if (!config.ok()) {
    outcome.refused = config.take_error();
    return outcome;
  }
  Result<std::string> target = app::ChooseTarget(settings.target, *config);
  if (!target.ok()) {
    outcome.refused = target.take_error();
    return outcome;
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.target = std::move(*target);
  outcome.target = pipeline_options.target;
  source::LoadOptions load_options;
  // Flyte tasks (and the PodTemplates and propeller configuration they are
  // rendered with) are read too, so discovery's Flyte tasks get checked.
  for (const source::ObjectType& type : flyte::FlyteObjectTypes()) load_options.types.push_back(type);
  flyte::AcceptFlyteTasks(&load_options);
  if (!settings.app_namespace.empty()) {
    load_options.default_namespace = settings.app_namespace;
    pipeline_options.default_namespace = settings.app_namespace;
  }

  WarnOfOtherBuilders(app::ManifestTree(), sink);
  std::vector<std::string> load_paths = app_paths;
  for (const std::string& runtime_path : settings.runtime_paths) {
    const fs::path relative = fs::path(runtime_path).lexically_normal();
    if (runtime_path.empty() || relative.is_absolute() || relative.string().rfind("..", 0) == 0) {
      outcome.refused =
          UsageError("runtime-paths entry '" + runtime_path + "' must be a relative path inside the repository");
      return outcome;
    }
    load_paths.push_back(relative.generic_string());
    if (Status inside = tree.Check(load_paths.back()); !inside.ok()) {
      outcome.refused = inside.take_error();
      outcome.refused->message = "runtime-paths entry " + outcome.refused->message;
      return outcome;
    }
  }
  source::ManifestSet loaded = source::LoadManifests(tree, load_paths, load_options);
  for (const std::string& rendered : tree.RenderedTrees()) {
    Diagnostic notice;
    notice.severity = Severity::kWarning;
    notice.location = Location{InternSourceName(rendered)};
    notice.message = std::string("left out: a tree `tjrender render --out` wrote (it holds ") +
                     batch::kOutputIndexFile +
                     "); its JobSets carry ownerReferences without uid, which the API server refuses. For a "
                     "cluster without the Trainer controller use the plugin parameter mode=render instead";
    sink.Notice(notice);
  }
  // Objects of runtime-paths only resolve runtimeRefs: not checked as the
  // application's, never printed.
  source::ManifestSet manifests;
  manifests.files = loaded.files;
  manifests.diagnostics = loaded.diagnostics;
  manifests.trainjob_patches = loaded.trainjob_patches;
  std::size_t app_files = 0;
  {
    source::ExpandedPaths app = source::ExpandPaths(tree, app_paths, {".json", ".yaml", ".yml"});
    std::set<std::string> names;
    for (const source::InputFile& f : app.files) names.insert(f.name);
    app_files = names.size();
    for (source::Manifest& m : loaded.manifests) {
      if (names.count(m.file) || !app::IsTrainJob(m.object)) manifests.manifests.push_back(std::move(m));
    }
    for (source::UntypedDocument& d : loaded.untyped) {
      if (names.count(d.file)) manifests.untyped.push_back(std::move(d));
    }
  }

  const bool render = settings.mode == ArgoMode::kRender;
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, render);
  // Flyte tasks are registered with Flyte, not applied: checked, never printed.
  flyte::FlyteOptions flyte_options;
  flyte_options.default_namespace = pipeline_options.default_namespace;
  app::WireFlyteAdmission(&flyte_options);
  flyte::FlyteOutcome flyte_outcome = flyte::RenderFlyte(manifests, flyte_options);
  findings.Add(flyte_outcome.diagnostics);
  for (const flyte::TaskResult& task : flyte_outcome.tasks) {
    report::ObjectRef ref = app::RefOf("flyteidl.core", "TaskTemplate", task.namespace_, task.name);
    findings.AddSubject(ref);
    findings.AddChecked(1);
    findings.Add(task.diagnostics, ref);
  }
  if (findings.has_errors() || findings.has_input_errors()) return outcome;

  std::vector<doc::Node> out;
  const std::string& default_namespace = pipeline_options.default_namespace;
  for (doc::Node& object : AllObjects(tree, app_paths, load_options.types)) {
    if (render && app::IsRuntime(object)) continue;
    if (render && app::IsTrainJob(object)) {
      auto it = rendered.find(app::TrainJobKey(object, default_namespace));
      if (it != rendered.end()) {
        for (doc::Node& made : it->second) out.push_back(std::move(made));
      }
      continue;
    }
    out.push_back(std::move(object));
  }
  if (out.empty() && !settings.allow_empty) {
    std::error_code error;
    const std::string app = settings.app_name.empty() ? "" : "application " + settings.app_name + ": ";
    outcome.empty = AsInputError(MakeError(
        Location{}, "",
        app + "argocd-generate would print zero objects (" + std::to_string(app_files) + " manifest file(s) under " +
            fs::current_path(error).string() +
            "); Argo CD would then prune everything the application owns. Check the application's path, or set "
            "the plugin parameter allow-empty=true if empty is intended"));
    return outcome;
  }
  outcome.objects = out.size();
  outcome.manifests = app::YamlStream(out);
  return outcome;
}

}  // namespace tjr::integrate
