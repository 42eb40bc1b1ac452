#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/compose.h"
#include "source/loader.h"

// `tjrender render` for Flyte: the tasks, PodTemplates and propeller
// configuration of a manifest set in, one Pod per task out.
namespace tjr::flyte {

/// The Flyte targets by name: "flyte-v1.16" (the default) and "flyte-v2".
const std::vector<std::string>& SupportedFlyteTargets();
/// The upstream release a version emulates ("flyteorg/flyte v1.16.8"), for --version.
std::string_view FlyteRelease(Version version);
/// (VersionForTarget is in release.h.)

/// v1 PodTemplate and v1 ConfigMap (namespaced, in any namespace even under
/// an enforced --namespace): the kinds to add to the loader's set.
std::vector<source::ObjectType> FlyteObjectTypes();

/// Loader options that keep Flyte task documents (IsFlyteTaskDocument) and
/// plain propeller configuration documents (`plugins: {k8s: ...}`).
void AcceptFlyteTasks(source::LoadOptions* options);

struct FlyteOptions {
  Version version = kDefaultVersion;
  /// The execution namespace of tasks that name none.
  std::string default_namespace = "default";
  bool strict = false;
  /// A propeller configuration file (`--flyte-config`): its document, or
  /// null to take the configuration from a ConfigMap of the inputs.
  doc::Node config_document;
};

/// One task's outcome.
struct TaskResult {
  std::string namespace_;
  std::string name;  ///< TaskTemplate.id.name
  std::string file;
  std::vector<doc::Node> objects;  ///< the Pod; empty when an error stopped it
  Diagnostics diagnostics;
  bool has_errors() const;
};

struct FlyteOutcome {
  /// Ordered by (namespace, name).
  std::vector<TaskResult> tasks;
  /// Findings not about one task (configuration errors, duplicate tasks).
  Diagnostics diagnostics;
};

/// Renders every Flyte task of `manifests` (its `untyped` documents) with
/// the PodTemplates and the propeller configuration of the same set:
/// options.config_document when set, else the one ConfigMap carrying
/// `plugins.k8s` or the one plain config document (two are an error).
FlyteOutcome RenderFlyte(const source::ManifestSet& manifests, const FlyteOptions& options);

}  // namespace tjr::flyte
