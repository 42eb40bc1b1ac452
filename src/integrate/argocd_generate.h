#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/findings.h"
#include "base/diagnostic.h"
#include "integrate/argo_params.h"

// The use case behind `tjrender argocd-generate`, the `generate` command of
// an Argo CD Config Management Plugin: the application's folder (the
// working directory, an unpacked copy without .git) read, its TrainJobs and
// runtimes checked, and the manifests Argo CD applies made.
namespace tjr::integrate {

struct ArgocdRequest {
  /// The application's manifests, below the working directory.
  std::vector<std::string> paths = {"."};
  /// The Application's settings, flags already applied; settings.target
  /// empty: the repository's, else the default.
  ArgoSettings settings;
};

/// What a run shows before its findings.
class ArgocdSink {
 public:
  virtual ~ArgocdSink() = default;
  /// A warning that is no finding: the folder holds a Helm chart or a
  /// kustomization this plugin reads as plain manifests.
  virtual void Notice(const Diagnostic& notice) = 0;
};

struct ArgocdOutcome {
  /// What stopped the run before the findings (a configuration, target or
  /// runtime-paths entry that cannot be used): exit 2.
  std::optional<Diagnostic> refused;
  /// Set when the findings hold no error: the manifests for stdout.
  std::string manifests;
  std::size_t objects = 0;
  /// Zero objects and no allow-empty: Argo CD would prune everything the
  /// application owns, so this error says so (exit 1, nothing printed).
  std::optional<Diagnostic> empty;
  std::string target;  ///< the target rendered, for the summary line
};

/// Runs the request; every finding goes to `findings` (the caller prints
/// them and decides the exit).
ArgocdOutcome ArgocdGenerate(const ArgocdRequest& request, app::Findings& findings, ArgocdSink& sink);

}  // namespace tjr::integrate
