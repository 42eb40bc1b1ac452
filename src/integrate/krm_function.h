#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/findings.h"
#include "app/render_config.h"
#include "base/diagnostic.h"

// The use case behind `tjrender krm`, a KRM function (kustomize's exec
// functions, `kpt fn eval --exec`): a ResourceList in, the same list out
// with a `results` entry per finding and, in render mode, TrainJobs
// replaced by what the Trainer controller would create.
namespace tjr::integrate {

struct KrmRequest {
  std::string resource_list;  ///< what the orchestrator hands over on stdin
  /// Flags; empty: the functionConfig's data.mode / data.target, then
  /// validate and the repository's target (else the default).
  std::string mode;
  std::string target;
  /// Folders or files whose runtimes the items' TrainJobs may reference:
  /// read, never written out. Empty: the functionConfig's
  /// data.runtime-paths (comma-separated), if any. Relative ones are taken
  /// from the package folder (the items' paths' root), else the working
  /// directory.
  std::vector<std::string> runtime_paths;
  /// The repository configuration (target, ignore rules); a missing file is
  /// an empty one.
  std::string config_path = app::kRepoConfigFile;
};

struct KrmOutcome {
  /// What stopped the run before the findings (a list that cannot be read,
  /// a bad mode, configuration or target): exit 2, nothing printed.
  std::optional<Diagnostic> refused;
  /// The ResourceList to print: the input byte for byte plus `results`
  /// (validate), or with TrainJobs rendered (render).
  std::string resource_list;
};

/// Runs the request; every finding goes to `findings` too, its location
/// mapped to the item's file (the caller prints them and decides the exit).
KrmOutcome RunKrmFunction(const KrmRequest& request, app::Findings& findings);

}  // namespace tjr::integrate
