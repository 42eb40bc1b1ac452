#pragma once

#include <string>
#include <vector>

namespace tjr::source {

/// A kind of object the loader keeps; every other kind is counted and
/// dropped. A later feature (Flyte PodTemplates, say) passes its own set.
struct ObjectType {
  std::string api_version;
  std::string kind;
  /// Namespaced objects get a namespace by default; cluster-scoped ones lose
  /// any namespace they were written with, as the API server drops it.
  bool namespaced = true;
  /// Kept in the namespace written even when --namespace is enforced: for
  /// objects that live beside the workload's namespace (Flyte's propeller
  /// configuration and PodTemplates live in the propeller namespace).
  bool any_namespace = false;
};

inline constexpr char kTrainerApiVersion[] = "trainer.kubeflow.org/v1alpha1";

/// TrainJob and TrainingRuntime (namespaced), ClusterTrainingRuntime
/// (cluster-scoped), all trainer.kubeflow.org/v1alpha1.
std::vector<ObjectType> TrainerObjectTypes();

/// The API group of an apiVersion: "trainer.kubeflow.org/v1alpha1" ->
/// "trainer.kubeflow.org", "v1" -> "" (the core group).
std::string ApiGroup(const std::string& api_version);

}  // namespace tjr::source
