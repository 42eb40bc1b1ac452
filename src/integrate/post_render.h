#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/findings.h"
#include "app/render_config.h"
#include "base/diagnostic.h"

// The use case behind `tjrender post-render`, a Helm post-renderer: the
// manifest stream Helm rendered, its TrainJobs and runtimes checked and, in
// render mode, its TrainJobs replaced by what the Trainer controller would
// create.
namespace tjr::integrate {

struct PostRenderRequest {
  std::string stream;   ///< what Helm hands over on stdin
  bool render = false;  ///< --mode render; else validate
  std::string target;   ///< a target flag; empty: the repository's, else the default
  /// Helm's release namespace (--namespace); empty: untold, so objects
  /// written without one are rendered without one.
  std::string namespace_;
  /// Files and folders whose runtimes resolve the stream's runtimeRefs
  /// (`--runtimes`): the ClusterTrainingRuntimes a platform installed
  /// beside the chart. Checked, never printed; their TrainJobs are ignored.
  std::vector<std::string> runtime_paths;
  /// The repository configuration (target, ignore rules); a missing file is
  /// an empty one.
  std::string config_path = app::kRepoConfigFile;
};

struct PostRenderOutcome {
  /// What stopped the run before the findings (a bad configuration or
  /// target, a document that cannot be read): exit 2, nothing printed.
  std::optional<Diagnostic> refused;
  /// The stream to give back when the findings hold no error: the input
  /// byte for byte (validate), or with TrainJobs rendered (render).
  std::string stream;
};

/// Runs the request; every finding goes to `findings` (the caller prints
/// them and decides the exit).
PostRenderOutcome PostRender(const PostRenderRequest& request, app::Findings& findings);

}  // namespace tjr::integrate
