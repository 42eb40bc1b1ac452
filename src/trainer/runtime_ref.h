#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::trainer {

/// The group of every Trainer kind.
inline constexpr std::string_view kTrainerGroup = "trainer.kubeflow.org";
/// The apiVersion the runtimes are read as (the only one the CRDs serve).
inline constexpr std::string_view kTrainerApiVersion = "trainer.kubeflow.org/v1alpha1";

/// A TrainJob's spec.runtimeRef after API-server defaulting.
struct RuntimeRef {
  std::string name;
  /// Absent only if the TrainJob was not defaulted; an explicit "" stays "".
  std::optional<std::string> api_group;
  std::optional<std::string> kind;

  /// The runtime registry key: "<kind>.<apiGroup>", or "<kind>" when the
  /// group is empty (apimachinery's GroupKind.String()).
  std::string RegistryKey() const;
  /// encoding/json of Trainer's RuntimeRef struct: fields in Go order
  /// (name, apiGroup, kind), unset pointers left out.
  std::string Json() const;
};

/// Reads spec.runtimeRef. A missing or mistyped runtimeRef or name is an
/// input error (the CRD requires both); a missing name reads as "".
Result<RuntimeRef> ReadRuntimeRef(const doc::Node& train_job);

/// Whose words an error is reported in: the Trainer controller's
/// (reconcile error, Failed condition) or its validating webhook's
/// (admission denial). The two phrase a missing runtime differently.
enum class Reporter { kController, kWebhook };

enum class RuntimeKind { kTrainingRuntime, kClusterTrainingRuntime };

/// Which client's not-found text a missing runtime gets. Trainer's manager
/// reads through controller-runtime's informer cache, whose NotFound names
/// the kind (`ClusterTrainingRuntime.trainer.kubeflow.org "x" not found`);
/// the API server, and the fake client Trainer's unit tests use, name the
/// resource (`clustertrainingruntimes.trainer.kubeflow.org "x" not found`).
enum class ClientForm { kCachedClient, kApiServer };

/// The runtime a TrainJob references.
struct ResolvedRuntime {
  RuntimeKind kind = RuntimeKind::kClusterTrainingRuntime;
  RuntimeRef ref;
  /// The runtime object (a cheap shared copy of the one given).
  doc::Node runtime;
  /// The webhook's warning for a ClusterTrainingRuntime labelled
  /// trainer.kubeflow.org/support: deprecated (severity kWarning).
  Diagnostics warnings;
};

/// Finds the runtime `train_job` (already API-server defaulted) references
/// among `objects` (other kinds are ignored), as Trainer v2.1.0 does:
///  - registry key TrainingRuntime.trainer.kubeflow.org or
///    ClusterTrainingRuntime.trainer.kubeflow.org, otherwise
///    `unsupported runtime: <key>`;
///  - a TrainingRuntime is looked up by name in the TrainJob's namespace, a
///    ClusterTrainingRuntime by name alone;
///  - not found: the controller's or the webhook's text, with the API
///    client's `<resource>.trainer.kubeflow.org "<name>" not found`.
/// `client` picks the not-found text (see ClientForm).
/// Objects without metadata.namespace are in `default_namespace` (kubectl's
/// context namespace). Errors point at spec.runtimeRef of the TrainJob. For
/// the webhook's not-found errors `field_path + ": " + message` is the
/// upstream text (its path is spec.runtimeRef for a TrainingRuntime but
/// spec.RuntimeRef for a ClusterTrainingRuntime, as upstream writes it);
/// otherwise `message` alone is.
Result<ResolvedRuntime> ResolveRuntime(const doc::Node& train_job,
                                       std::span<const doc::Node> objects, Reporter reporter,
                                       ClientForm client = ClientForm::kCachedClient,
                                       std::string_view default_namespace = "default");

}  // namespace tjr::trainer
