// `tjrender argocd-generate`: the `generate` command of an Argo CD Config
// Management Plugin (v2, sidecar). Argo CD runs it in an unpacked copy of the
// application's folder (no .git), with the build environment, the
// Application's plugin env (ARGOCD_ENV_*) and parameters (PARAM_*,
// ARGOCD_APP_PARAMETERS); stdout must hold only manifests, and stderr is
// what the UI shows when it fails.
#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "app/integration_render.h"
#include "app/manifest_tree.h"
#include "cli/options.h"
#include "cli/output.h"
#include "doc/objects.h"
#include "integrate/argo_params.h"
#include "pipeline/target.h"
#include "source/document_class.h"
#include "source/helm_chart.h"
#include "source/walk.h"
#include "yaml/reader.h"

namespace tjr::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

std::string Usage() {
  return std::string(
    "usage: tjrender argocd-generate [PATH...] [--mode validate|render] [--target T] [--allow-empty]\n\n"
    "The `generate` command of the Argo CD plugin (integrations/argocd/plugin.yaml). Reads every\n"
    "manifest under PATH (default: the current folder, the application's), validates the TrainJobs\n"
    "and runtimes, and prints manifests on stdout; logs and findings go to stderr.\n"
    "  validate (default)  every object as written, after a clean check (the Trainer controller\n"
    "                      renders TrainJobs in the cluster)\n"
    "  render              TrainJobs replaced by the JobSets, ConfigMaps and PodGroups the\n"
    "                      controller would create (without ownerReferences, since the\n"
    "                      TrainJob is not applied), runtimes left out, other objects as\n"
    "                      written\n"
    "Settings come from the flags, else the Application's plugin parameters (mode, target,\n"
    "allow-empty, runtime-paths), else its plugin env (TJRENDER_MODE, TJRENDER_TARGET,\n"
    "TJRENDER_ALLOW_EMPTY, TJRENDER_RUNTIME_PATHS), else .tjrender.yaml, else the defaults\n"
    "(mode validate, target ") + std::string(pipeline::kDefaultTarget) + "). runtime-paths are\n"
    "folders relative to the repository root whose runtimes TrainJobs may reference.\n"
    "Files that hold no Kubernetes object, kustomize and other tools' configuration\n"
    "(kind: Kustomization) and Helm chart templates are never printed.\n"
    "Printing zero objects is an error (Argo CD would prune everything) unless allow-empty.\n";
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
void WarnOfOtherBuilders(const source::Tree& tree) {
  for (const char* file : {source::kChartFile, "kustomization.yaml", "kustomization.yml", "Kustomization"}) {
    Result<source::EntryType> type = tree.Stat(file);
    if (!type.ok() || *type != source::EntryType::kFile) continue;
    std::fprintf(stderr,
                 "warning: the application folder holds %s: tjrender reads its files as plain manifests and "
                 "does not run %s (Argo CD's own %s support does, when the Application does not name the "
                 "tjrender plugin)\n",
                 file, file == std::string(source::kChartFile) ? "helm" : "kustomize",
                 file == std::string(source::kChartFile) ? "Helm" : "kustomize");
    return;
  }
}

}  // namespace

int RunArgocdGenerate(const std::vector<std::string>& args) {
  std::string mode_flag;
  std::string target_flag;
  bool allow_empty_flag = false;
  bool verbose = false;
  std::vector<std::string> paths;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("mode", po::value(&mode_flag), "validate or render")(
      "target", po::value(&target_flag), "emulated Trainer version")(
      "allow-empty", po::bool_switch(&allow_empty_flag), "zero objects is a success")(
      "verbose,v", po::bool_switch(&verbose), "print notes");
  const std::string usage = Usage();
  if (auto exit_code = ParseCommandLine(args, named, &paths, usage.c_str())) return *exit_code;
  SetVerbose(verbose);
  if (paths.empty()) paths.push_back(".");

  Result<integrate::ArgoSettings> settings = integrate::ReadArgoSettings(integrate::ProcessEnvironment());
  if (!settings.ok()) {
    Report(settings.error());
    return kExitUsage;
  }
  if (!mode_flag.empty()) {
    if (mode_flag != "validate" && mode_flag != "render") {
      ReportUsageError("--mode must be validate or render, not '" + mode_flag + "'");
      return kExitUsage;
    }
    settings->mode = mode_flag == "render" ? integrate::ArgoMode::kRender : integrate::ArgoMode::kValidate;
  }
  if (allow_empty_flag) settings->allow_empty = true;
  if (std::string missing = integrate::MissingClusterApi(*settings); !missing.empty()) {
    ReportUsageError(missing);
    return kExitUsage;
  }

  Result<app::RepoConfig> config = app::ReadRepoConfig(app::RepoConfigPath(paths));
  if (!config.ok()) {
    Report(config.error());
    return kExitUsage;
  }
  pipeline::PipelineOptions pipeline_options;
  if (auto exit_code = ChooseTarget(!target_flag.empty() ? target_flag : settings->target, *config,
                                    &pipeline_options.target)) {
    return *exit_code;
  }
  source::LoadOptions load_options;
  if (!settings->app_namespace.empty()) {
    load_options.default_namespace = settings->app_namespace;
    pipeline_options.default_namespace = settings->app_namespace;
  }

  app::ManifestTree tree;
  WarnOfOtherBuilders(tree);
  std::vector<std::string> load_paths = paths;
  fs::path root = RepoRoot(settings->source_path);
  for (const std::string& runtime_path : settings->runtime_paths) {
    fs::path full = (root / runtime_path).lexically_normal();
    if (runtime_path.empty() || fs::path(runtime_path).is_absolute() ||
        full.lexically_relative(root).string().rfind("..", 0) == 0) {
      ReportUsageError("runtime-paths entry '" + runtime_path +
                       "' must be a relative path inside the repository");
      return kExitUsage;
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

  ReportOptions report_options;
  report_options.verbose = verbose;
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;
  const bool render = settings->mode == integrate::ArgoMode::kRender;
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, render);
  if (!findings.Finish()) return kExitUsage;
  if (findings.has_input_errors()) return kExitUsage;
  if (findings.has_errors()) {
    if (settings->runtime_paths.empty()) {
      std::fputs("hint: runtimes kept outside the application's folder are found through the "
                 "plugin parameter runtime-paths (folders relative to the repository root)\n",
                 stderr);
    }
    return kExitFindings;
  }

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
  std::string app = settings->app_name.empty() ? "" : "application " + settings->app_name + ": ";
  if (out.empty() && !settings->allow_empty) {
    ReportUsageError(app + "argocd-generate would print zero objects (" + std::to_string(app_files) +
                     " manifest file(s) under " + fs::current_path().string() +
                     "); Argo CD would then prune everything the application owns. Check the "
                     "application's path, or set the plugin parameter allow-empty=true if empty "
                     "is intended");
    return kExitFindings;
  }
  WriteStdout(app::YamlStream(out));
  std::fprintf(stderr, "%s%zu object(s), mode %s, target %s%s\n", app.c_str(), out.size(),
               render ? "render" : "validate", pipeline_options.target.c_str(),
               settings->revision.empty() ? "" : (", revision " + settings->revision).c_str());
  return kExitClean;
}

}  // namespace tjr::cli
