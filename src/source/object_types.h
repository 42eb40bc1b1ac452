#pragma once

#include <string>
#include <string_view>
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
  /// Two objects of this kind with one namespace and name are a
  /// `duplicate-object` finding and neither is kept. Off for kinds read only
  /// to find something among them (Flyte's propeller ConfigMap), where a
  /// repository's other ConfigMaps of one name are none of tjrender's
  /// business.
  bool unique = true;
};

inline constexpr char kTrainerApiVersion[] = "trainer.kubeflow.org/v1alpha1";

/// An apiVersion that people write for Trainer objects but that no Kubeflow
/// Trainer release serves: the loader reports such an object as an error
/// instead of counting it with the other ignored kinds.
struct NonexistentVersion {
  std::string_view api_version;
  std::string_view why;
};

/// trainer.kubeflow.org/v2alpha1: only in KEP-2170's prose and the website
/// examples copied from it; every Trainer CRD has the one version v1alpha1
/// (trainer-runtimepatches.md §1).
inline constexpr NonexistentVersion kNonexistentTrainerVersions[] = {
    {"trainer.kubeflow.org/v2alpha1",
     "appears only in KEP-2170 and the website examples copied from it"},
};

/// The warning rule for a TrainJob, TrainingRuntime or ClusterTrainingRuntime
/// in an apiVersion of kubeflow.org or a subgroup that no Trainer release
/// serves (kubeflow.org/v2alpha1, trainer.kubeflow.org/v1): not read.
inline constexpr std::string_view kRuleApiVersionNotServed = "api-version-not-served";

/// TrainJob and TrainingRuntime (namespaced), ClusterTrainingRuntime
/// (cluster-scoped), all trainer.kubeflow.org/v1alpha1.
std::vector<ObjectType> TrainerObjectTypes();

/// The API group of an apiVersion: "trainer.kubeflow.org/v1alpha1" ->
/// "trainer.kubeflow.org", "v1" -> "" (the core group).
std::string ApiGroup(const std::string& api_version);

}  // namespace tjr::source
