// `tjrender argocd-generate`: the `generate` command of an Argo CD Config
// Management Plugin (v2, sidecar). Argo CD runs it in an unpacked copy of the
// application's folder (no .git), with the build environment, the
// Application's plugin env (ARGOCD_ENV_*) and parameters (PARAM_*,
// ARGOCD_APP_PARAMETERS); stdout must hold only manifests, and stderr is
// what the UI shows when it fails.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "integrate/argo_params.h"
#include "integrate/argocd_generate.h"
#include "pipeline/target.h"

namespace tjr::cli {
namespace po = boost::program_options;

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

// The notices go to stderr as they come, before the findings.
class NoticePrinter final : public integrate::ArgocdSink {
 public:
  void Notice(const Diagnostic& notice) override { Report(notice); }
};

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
  if (!target_flag.empty()) settings->target = target_flag;

  ReportOptions report_options;
  report_options.verbose = verbose;
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;
  integrate::ArgocdRequest request;
  request.paths = std::move(paths);
  request.settings = *settings;
  NoticePrinter notices;
  integrate::ArgocdOutcome outcome = integrate::ArgocdGenerate(request, findings, notices);
  if (outcome.refused) {
    Report(*outcome.refused);
    return kExitUsage;
  }
  if (!findings.Finish()) return kExitUsage;
  if (findings.has_input_errors()) return kExitUsage;
  if (findings.has_errors()) {
    // A runtimeRef not found (the controller's "must be created before the
    // TrainJob" / the webhook's "not found"), not any error.
    const bool runtime_not_found = std::any_of(
        findings.findings().begin(), findings.findings().end(), [](const report::Finding& f) {
          return f.diagnostic.severity == Severity::kError && f.diagnostic.message.find("not found") != std::string::npos;
        });
    if (settings->runtime_paths.empty() && runtime_not_found) {
      std::fputs("hint: runtimes kept outside the application's folder are found through the "
                 "plugin parameter runtime-paths (folders relative to the repository root)\n",
                 stderr);
    }
    return kExitFindings;
  }
  if (outcome.empty) {
    Report(*outcome.empty);
    return kExitFindings;
  }
  WriteStdout(outcome.manifests);
  const std::string app = settings->app_name.empty() ? "" : "application " + settings->app_name + ": ";
  std::fprintf(stderr, "%s%zu object(s), mode %s, target %s%s\n", app.c_str(), outcome.objects,
               settings->mode == integrate::ArgoMode::kRender ? "render" : "validate", outcome.target.c_str(),
               settings->revision.empty() ? "" : (", revision " + settings->revision).c_str());
  return kExitClean;
}

}  // namespace tjr::cli
