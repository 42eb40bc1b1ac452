#include "integrate/argocd_generate.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include "app/integration_render.h"
#include "app/manifest_tree.h"
#include "app/render_config.h"
#include "app/target_name.h"
#include "doc/objects.h"
#include "pipeline/pipeline.h"
#include "source/document_class.h"
#include "source/helm_chart.h"
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
// ARGOCD_APP_SOURCE_PATH.
fs::path RepoRoot(const std::string& source_path) {
  std::error_code error;
  fs::path cwd = fs::current_path(error);
  fs::path root = cwd;
  fs::path app = fs::path(source_path).lexically_normal();
  if (source_path.empty() || app == ".") return cwd;
  for (auto it = app.begin(); it != app.end(); ++it) {
    if (it->empty()) continue;
    root = root.parent_path();
  }
  return root;
}

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
  const std::vector<std::string>& paths = request.paths;
  if (std::string missing = MissingClusterApi(settings); !missing.empty()) {
    outcome.refused = UsageError(missing);
    return outcome;
  }
  Result<app::RepoConfig> config = app::ReadRepoConfig(app::RepoConfigPath(paths));
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
  if (!settings.app_namespace.empty()) {
    load_options.default_namespace = settings.app_namespace;
    pipeline_options.default_namespace = settings.app_namespace;
  }

  app::ManifestTree tree;
  WarnOfOtherBuilders(tree, sink);
  std::vector<std::string> load_paths = paths;
  fs::path root = RepoRoot(settings.source_path);
  for (const std::string& runtime_path : settings.runtime_paths) {
    fs::path full = (root / runtime_path).lexically_normal();
    if (runtime_path.empty() || fs::path(runtime_path).is_absolute() ||
        full.lexically_relative(root).string().rfind("..", 0) == 0) {
      outcome.refused =
          UsageError("runtime-paths entry '" + runtime_path + "' must be a relative path inside the repository");
      return outcome;
    }
    load_paths.push_back(full.string());
  }
  source::ManifestSet loaded = source::LoadManifests(tree, load_paths, load_options);
  // Objects of runtime-paths only resolve runtimeRefs: not checked as the
  // application's, never printed.
  source::ManifestSet manifests;
  manifests.files = loaded.files;
  manifests.diagnostics = loaded.diagnostics;
  std::size_t app_files = 0;
  {
    source::ExpandedPaths app = source::ExpandPaths(tree, paths, {".json", ".yaml", ".yml"});
    std::set<std::string> names;
    for (const source::InputFile& f : app.files) names.insert(f.name);
    app_files = names.size();
    for (source::Manifest& m : loaded.manifests) {
      if (names.count(m.file) || !app::IsTrainJob(m.object)) manifests.manifests.push_back(std::move(m));
    }
  }

  const bool render = settings.mode == ArgoMode::kRender;
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, render);
  if (findings.has_errors() || findings.has_input_errors()) return outcome;

  std::vector<doc::Node> out;
  const std::string& default_namespace = pipeline_options.default_namespace;
  for (doc::Node& object : AllObjects(tree, paths, load_options.types)) {
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
