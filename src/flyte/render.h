#pragma once

#include <functional>
#include <memory>
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
  /// The documents of a `--flyte-config` file (GivenConfigDocument reads
  /// them), or nullopt to take the configuration from the inputs.
  std::optional<std::vector<doc::Node>> config_documents;
  /// The file's name, for messages.
  std::string config_file = "--flyte-config";
  /// The cluster's admission, wired by app/ (flyte/ sits below admission/):
  /// of every v1 PodTemplate of the inputs, whether or not a task names it
  /// (one it refuses is never stored, so a task naming it fails as on a
  /// missing one), and of each rendered Pod (`task`: the task document it
  /// came from; refused, the task renders nothing). Unset: the PodTemplate's
  /// decoding and metadata checks only, no Pod check.
  std::function<Diagnostics(const doc::Node& pod_template)> admit_pod_template;
  std::function<Diagnostics(const doc::Node& pod, const doc::Node& task)> admit_pod;
  /// Keep each composed task's TaskTrace (for `tjrender explain`); off, the
  /// render records nothing.
  bool keep_traces = false;
};

struct TaskTrace;  // flyte/trace.h

/// One task's outcome.
struct TaskResult {
  std::string namespace_;
  std::string name;  ///< TaskTemplate.id.name
  std::string file;
  std::vector<doc::Node> objects;  ///< the Pod; empty when an error stopped it
  Diagnostics diagnostics;
  /// With FlyteOptions::keep_traces, for a task whose Pod was composed
  /// (admitted or not); null otherwise.
  std::shared_ptr<const TaskTrace> trace;
  bool has_errors() const;
};

struct FlyteOutcome {
  /// Ordered by (namespace, name).
  std::vector<TaskResult> tasks;
  /// Findings not about one task (configuration errors, duplicate tasks).
  Diagnostics diagnostics;
};

/// A `--flyte-config` file as one configuration document, read as
/// propeller reads its config files (later ones win, viper's merge): each
/// document may be propeller's config (`plugins: {k8s: ...}`, `propeller`,
/// flyteadmin's `task_resources`), a v1 ConfigMap carrying it (the Helm
/// charts' flyte-propeller-config or <release>-config, its .yaml data keys
/// merged in key order; `kubectl get configmap -o yaml`), a v1 List of
/// ConfigMaps (`kubectl get configmaps -o yaml`: those that carry none are
/// passed over) or a Flyte chart's values (ConfigFromChartValues, with a
/// note). Any other document, and a file that yields none of the sections
/// tjrender reads, is an input error at its location: silently rendering
/// with the built-in defaults would hide the mistake.
/// `*propeller_namespace`: the namespace of the ConfigMap that carried
/// plugins.k8s, or the one the values name; empty when none does.
Result<doc::Node> GivenConfigDocument(const std::vector<doc::Node>& documents, const std::string& file,
                                      Diagnostics* notes, std::string* propeller_namespace);

/// Renders every Flyte task of `manifests` (its `untyped` documents) with
/// the PodTemplates and the propeller configuration of the same set:
/// options.config_documents when set (GivenConfigDocument), else the one ConfigMap carrying
/// `plugins.k8s` or the one plain config document (two are an error).
FlyteOutcome RenderFlyte(const source::ManifestSet& manifests, const FlyteOptions& options);

}  // namespace tjr::flyte
