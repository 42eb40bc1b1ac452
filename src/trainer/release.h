#pragma once

#include <cstddef>
#include <string_view>

// The emulated Trainer releases, one row of data each. Code asks a release
// what it does (a named behaviour below), never which release it is: adding
// a release is a row here plus the code for behaviour no row had before
// (docs/architecture.md "Adding a Trainer release"). scripts/check-release-comparisons
// keeps version comparisons out of every other file.
namespace tjr::trainer {

/// The key of a row. Compare releases through their behaviours, not this.
enum class TrainerVersion { kV2_1, kV2_2, kV2_3 };
inline constexpr std::size_t kReleaseCount = 3;  ///< rows, indexable by TrainerVersion

/// How the TrainJob's own pod changes reach the runtime's JobSet template.
enum class PatchMerge {
  /// podTemplateOverrides strategically merged into each targeted job's
  /// pod template (v2.1.0).
  kPodTemplateOverrides,
  /// runtimePatches, each replicatedJob patch merged into the matching
  /// JobTemplateSpec only (v2.2.0).
  kRuntimePatchesPerJob,
  /// runtimePatches merged into the whole JobSetSpec, replicated jobs
  /// re-sorted into the runtime's order, unknown job names added (v2.3.0).
  kRuntimePatchesWholeSpec,
};

/// Where `spec.trainer.resourcesPerNode` lands in the node container.
enum class ResourcesPerNode {
  /// Only the JobSet plugin's write-back, replacing the resources (v2.1.0).
  kJobSetPluginReplaces,
  /// Also set on the trainer PodSet before the plugins run (v2.2.0), and
  /// replaced again by the JobSet plugin.
  kPodSetAndJobSetPluginReplace,
  /// Merged per key into the container before the plugins, and not
  /// written again by the JobSet plugin (v2.3.0, #3366).
  kMergedPerKey,
};

struct Release {
  TrainerVersion version;
  std::string_view tag;                ///< "v2.3.0": the upstream tag
  std::string_view kubernetes_schema;  ///< policies/ schema of its k8s.io/api
  std::string_view jobset_schema;      ///< policies/ schema of its JobSet API
  /// The releases that admit its rendered objects (admission/releases.h):
  /// the Kubernetes minor it supports ("1.34") and the JobSet its manifests
  /// install ("v0.10.1").
  std::string_view kubernetes_release;
  std::string_view jobset_release;
  /// policies/ schema of its own API types (TrainJob, PodTemplateOverride,
  /// RuntimePatch, PodSpecPatch...), generated from its trainjob_types.go.
  std::string_view trainer_schema;
  std::string_view crd_rules;          ///< policies/ CRD validation table, TrainJob
  std::string_view runtime_crd_rules;  ///< policies/ CRD validation table, runtimes
  /// The API server's defaults of its CRDs (trainer::BuiltinDefaults table).
  std::string_view crd_defaults;
  PatchMerge patch_merge;
  /// spec.runtimePatches replace podTemplateOverrides, spec.labels and
  /// spec.annotations (v2.2.0+).
  bool runtime_patches;
  /// A runtimePatches change is allowed while the TrainJob is suspended
  /// after the update (v2.2.0), or before or after it (v2.3.0).
  bool patch_change_if_suspended_before;
  ResourcesPerNode resources_per_node;
  /// PodSet containers carry the runtime container's image and command
  /// (v2.3.0), and the JobSet plugin writes a non-empty one back (v2.2.0+).
  bool podset_image_and_command;
  bool write_back_image_and_command;
  /// Endpoints for every replica of a job, not replica 0 only (v2.3.0, #3539).
  bool endpoints_every_replica;
  /// parallelism/completions synced from the PodSet count by job name after
  /// the plugins (v2.3.0); before, written while building each job.
  bool parallelism_by_job_name;
  /// PodSet init containers written back into the JobSet (v2.3.0).
  bool sync_init_containers;
  /// The JAX, XGBoost and Flux plugins exist (v2.2.0+); JAX counts as an ML
  /// policy for PlainML.
  bool jax_xgboost_flux_plugins;
  /// The `releases.<key>` of policies/flux-templates.json ("": no Flux).
  std::string_view flux_templates;
  /// Flux: a Memory emptyDir for its state, the installer as an init
  /// container, and an entrypoint with a resource spec (`--cores=`, `--gpu=`
  /// ranges) (v2.3.0).
  bool flux_v23_layout;
  /// MPI: the SSH auth volume items carry file modes (v2.3.0).
  bool mpi_ssh_key_modes;
  /// Torch: the runtime's torch.numProcPerNode and its string forms are
  /// read (v2.1.0; removed in v2.2.0).
  bool torch_runtime_num_proc_per_node;
  /// Torch/TorchTune: QLoRA means quantize_base without use_dora (v2.3.0).
  bool qlora_excludes_dora;
  /// Torch: spec.mlPolicy.torch.envInjection targets (v2.3.0), with its CEL
  /// rules and webhook checks.
  bool torch_env_injection;
  /// TrainJobs whose spec.managedBy names another controller are skipped
  /// (v2.3.0: kueue.x-k8s.io/multikueue).
  bool skip_foreign_managed_by;
  /// Webhook: initializer containers must mount the `initializer` volume;
  /// TorchTune multi-node LoRA/QLoRA refused; reserved OpenMPI env;
  /// trainer.numProcPerNode overrides the Flux policy's (v2.3.0).
  bool webhook_v23_rules;
  /// The controller applies a runtime snapshot ConfigMap per TrainJob and
  /// renders from it afterwards (v2.3.0, render/runtime_snapshot.h).
  bool runtime_snapshot;
};

/// The release a caller gets without naming one: the product's default
/// target, trainer-v2.3 (pipeline/target.h kDefaultTarget).
inline constexpr TrainerVersion kDefaultRelease = TrainerVersion::kV2_3;

/// The row of `version`.
const Release& ReleaseOf(TrainerVersion version);

}  // namespace tjr::trainer
