#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "render/quantity_math.h"
#include "trainer/release.h"

namespace tjr::render {

/// Go maps of strings; std::map keeps json.Marshal's sorted key order.
using StringMap = std::map<std::string, std::string, std::less<>>;

/// runtime.Container: the lists plugins upsert into, later synced into the
/// JobSet by the builder (sequences, never null).
struct PodSetContainer {
  std::string name;
  std::string image;  ///< "" when unset (always before v2.3); a non-empty one is written back (v2.2+)
  doc::Node command;  ///< null or a sequence (null before v2.3); a non-empty one is written back (v2.2+)
  doc::Node env;
  doc::Node ports;
  doc::Node volume_mounts;
};

/// A PodSet's pod DNS names as the pod-network phase lists them,
/// `<prefix><replica>-<pod>.<subdomain>`, replica by replica. Described, not
/// listed: only MPI's hostfile reads them, and a count in the billions (a
/// numNodes the API server accepts) must cost nothing until then.
struct Endpoints {
  std::string prefix;  ///< "<trainjob>-<job>-"
  std::string subdomain;
  std::int64_t replicas = 0;
  std::int32_t pods = 0;  ///< per replica

  /// How many there are (saturating at INT64_MAX).
  std::int64_t size() const;
  /// The `index`th name, 0 <= index < size().
  std::string At(std::int64_t index) const;
};

/// runtime.PodSet, one per replicated job in order (spec §1.3 step 4).
struct PodSet {
  std::string name;
  std::optional<std::string> ancestor;  ///< trainjob-ancestor-step label
  std::int32_t count = 1;
  std::vector<PodSetContainer> init_containers;
  std::vector<PodSetContainer> containers;
  doc::Node volumes;
  /// PodRequests of the merged typed pod spec (runtime requests only).
  ResourceList single_pod_requests;
  Endpoints endpoints;  ///< set by the pod-network phase
};

/// runtime.Info: what the plugins read and write.
struct Info {
  trainer::TrainerVersion version = trainer::kDefaultRelease;  ///< the emulated release
  StringMap labels;       ///< JobSet metadata labels (runtime template, TrainJob wins)
  StringMap annotations;  ///< JobSet metadata annotations
  doc::Node ml_policy;    ///< runtime spec.mlPolicy (null when absent)
  doc::Node pod_group_policy;  ///< runtime spec.podGroupPolicy (null when absent)
  StringMap pod_labels;        ///< Scheduler.PodLabels
  std::optional<StringMap> pod_annotations;  ///< Scheduler.PodAnnotations (nil by default)
  /// The JobSetSpec apply configuration: the merged template in typed form
  /// with nulls removed (what JSON of the apply configuration holds).
  doc::Node jobset_spec;
  std::vector<PodSet> pod_sets;

  PodSet* FindPodSetByAncestor(std::string_view ancestor);
  PodSet* FindPodSetByName(std::string_view name);
  /// The container `name` of the first PodSet with `ancestor`, or nullptr.
  PodSetContainer* FindContainer(std::string_view ancestor, std::string_view name);
};

inline constexpr std::string_view kAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";
inline constexpr std::string_view kAncestorTrainer = "trainer";
inline constexpr std::string_view kDatasetInitializer = "dataset-initializer";
inline constexpr std::string_view kModelInitializer = "model-initializer";
inline constexpr std::string_view kNode = "node";
inline constexpr std::string_view kLauncher = "launcher";

/// newRuntimeInfo (spec §1.3; runtimepatches spec §2.1-§2.3 from v2.2):
/// labels/annotations, the patches merge of `version` (MergeJobSetTemplate),
/// the typed JobSetSpec, PodSets with counts and single-pod requests.
/// `trainjob` and `runtime` are API-defaulted objects.
/// `merged_jobset_spec`: that merge, when the caller has it (see RenderOptions).
Result<Info> BuildInfo(const doc::Node& trainjob, const doc::Node& runtime, const doc::Node* merged_jobset_spec,
                       trainer::TrainerVersion version);

/// Removes null values from mappings and sequences, recursively, as the
/// apply configuration's pointer fields do with the nulls of
/// runtime.DefaultUnstructuredConverter output.
doc::Node DropNulls(const doc::Node& node);

/// The resources GetNumGPUPerNode/getNumCPUPerNode read: the TrainJob's
/// resourcesPerNode if set, else ExtractResourcePerNodeFromRuntime (spec
/// §1.5.2). Fields: requests, limits (empty when absent).
struct NodeResources {
  ResourceList requests;
  ResourceList limits;
};
Result<NodeResources> TrainerResources(const Info& info, const doc::Node& trainjob);

/// GetNumGPUPerNode: the first resource (in sorted name order — Go iterates
/// the map randomly) whose name contains "gpu" case-insensitively, Value()
/// rounded up; requests first, then limits.
std::int64_t GpuCount(const NodeResources& resources);

}  // namespace tjr::render
