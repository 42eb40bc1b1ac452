#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/diagnostic.h"

// The settings of `tjrender argocd-generate`, read from the environment an
// Argo CD Config Management Plugin (v2, sidecar) command receives.
namespace tjr::integrate {

/// What argocd-generate emits.
enum class ArgoMode {
  /// Every object as written, after a clean check: the Trainer controller
  /// renders TrainJobs in the cluster.
  kValidate,
  /// TrainJobs replaced by what the controller would create (JobSets,
  /// ConfigMaps, PodGroups), runtimes dropped, other objects as written: for
  /// clusters that run JobSet without the Trainer controller.
  kRender,
};

struct ArgoSettings {
  ArgoMode mode = ArgoMode::kValidate;
  std::string target;           ///< empty: .tjrender.yaml or the default
  bool allow_empty = false;     ///< zero objects is a success
  /// Folders or files, relative to the repository root, whose runtimes the
  /// application's TrainJobs may reference (read, never emitted).
  std::vector<std::string> runtime_paths;
  std::string app_name;         ///< ARGOCD_APP_NAME
  std::string app_namespace;    ///< ARGOCD_APP_NAMESPACE (the destination namespace)
  std::string source_path;      ///< ARGOCD_APP_SOURCE_PATH
  std::string revision;         ///< ARGOCD_APP_REVISION
  /// KUBE_API_VERSIONS split at commas (the destination cluster's API
  /// versions); empty when Argo CD did not send it.
  std::vector<std::string> cluster_api_versions;
};

/// The API version `mode` applies (trainer.kubeflow.org/v1alpha1 for
/// validate, jobset.x-k8s.io/v1alpha2 for render) when the destination
/// cluster is known not to serve it: a message saying so; else empty.
std::string MissingClusterApi(const ArgoSettings& settings);

/// The plugin's parameter names, as announced in plugin.yaml.
inline constexpr const char* kArgoParameters[] = {"mode", "target", "allow-empty", "runtime-paths"};

/// Reads the settings from `env`. Sources, strongest first: the
/// Application's plugin parameters (`ARGOCD_APP_PARAMETERS`, the JSON list
/// Argo CD sends, or failing that the `PARAM_<NAME>` / `PARAM_<NAME>_<i>`
/// variables), then the Application's plugin env (`ARGOCD_ENV_TJRENDER_MODE`,
/// `..._TARGET`, `..._ALLOW_EMPTY`, `..._RUNTIME_PATHS` comma-separated).
/// Announced defaults are not sent by Argo CD, so the defaults live here:
/// mode validate, allow-empty false. Unknown parameter names and bad
/// values are errors (a typo must not change what is applied).
Result<ArgoSettings> ReadArgoSettings(const std::map<std::string, std::string>& env);

/// The process environment as a map.
std::map<std::string, std::string> ProcessEnvironment();

}  // namespace tjr::integrate
