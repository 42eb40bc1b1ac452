#include "trainer/release.h"

#include <array>

#include "trainer/defaults_table.h"

namespace tjr::trainer {
namespace {

// Sources: docs/manual.md "Targets" and each flag's comment in release.h; the
// conformance suites plugins/, plugins-v23/, runtimepatches/ and
// restrictions-v2.3/ pin each behaviour to its release.
constexpr std::array<Release, kReleaseCount> kReleases = {{
    {
        .version = TrainerVersion::kV2_1,
        .tag = "v2.1.0",
        .kubernetes_schema = "kubernetes-v1.34",
        .jobset_schema = "jobset-v0.10.1",
        .kubernetes_release = "1.34",
        .jobset_release = "v0.10.1",
        .trainer_schema = "trainer-v2.1.0",
        .crd_rules = "trainer-v2.1.0-validation",
        .runtime_crd_rules = "trainer-v2.1.0-runtime-validation",
        .crd_defaults = kV21DefaultsTable,
        .patch_merge = PatchMerge::kPodTemplateOverrides,
        .runtime_patches = false,
        .patch_change_if_suspended_before = false,
        .resources_per_node = ResourcesPerNode::kJobSetPluginReplaces,
        .podset_image_and_command = false,
        .write_back_image_and_command = false,
        .endpoints_every_replica = false,
        .parallelism_by_job_name = false,
        .sync_init_containers = false,
        .jax_xgboost_flux_plugins = false,
        .flux_templates = "",
        .flux_v23_layout = false,
        .mpi_ssh_key_modes = false,
        .torch_runtime_num_proc_per_node = true,
        .qlora_excludes_dora = false,
        .torch_env_injection = false,
        .skip_foreign_managed_by = false,
        .webhook_v23_rules = false,
        .runtime_snapshot = false,
    },
    {
        .version = TrainerVersion::kV2_2,
        .tag = "v2.2.0",
        .kubernetes_schema = "kubernetes-v1.35",
        .jobset_schema = "jobset-v0.11.1",
        .kubernetes_release = "1.35",
        .jobset_release = "v0.11.0",
        .trainer_schema = "trainer-v2.2.0",
        .crd_rules = "trainer-v2.2.0-validation",
        .runtime_crd_rules = "trainer-v2.2.0-runtime-validation",
        .crd_defaults = kHeadDefaultsTable,
        .patch_merge = PatchMerge::kRuntimePatchesPerJob,
        .runtime_patches = true,
        // v2.2.0 itself: its suspend rule wants the new object suspended;
        // v2.2.1 took v2.3.0's "before or after" rule (the CRD rules of
        // v2.2.0 and v2.2.1 are the same).
        .patch_change_if_suspended_before = false,
        .resources_per_node = ResourcesPerNode::kPodSetAndJobSetPluginReplace,
        .podset_image_and_command = false,
        .write_back_image_and_command = true,
        .endpoints_every_replica = false,
        .parallelism_by_job_name = false,
        .sync_init_containers = false,
        .jax_xgboost_flux_plugins = true,
        .flux_templates = "v2.2.0",
        .flux_v23_layout = false,
        .mpi_ssh_key_modes = false,
        .torch_runtime_num_proc_per_node = false,
        .qlora_excludes_dora = false,
        .torch_env_injection = false,
        .skip_foreign_managed_by = false,
        .webhook_v23_rules = false,
        .runtime_snapshot = false,
    },
    {
        .version = TrainerVersion::kV2_3,
        .tag = "v2.3.0",
        .kubernetes_schema = "kubernetes-v1.36",
        .jobset_schema = "jobset-v0.12.0",
        .kubernetes_release = "1.36",
        .jobset_release = "v0.12.0",
        .trainer_schema = "trainer-v2.3.0",
        .crd_rules = "trainer-v2.3.0-validation",
        .runtime_crd_rules = "trainer-v2.3.0-runtime-validation",
        .crd_defaults = kHeadDefaultsTable,
        .patch_merge = PatchMerge::kRuntimePatchesWholeSpec,
        .runtime_patches = true,
        .patch_change_if_suspended_before = true,
        .resources_per_node = ResourcesPerNode::kMergedPerKey,
        .podset_image_and_command = true,
        .write_back_image_and_command = true,
        .endpoints_every_replica = true,
        .parallelism_by_job_name = true,
        .sync_init_containers = true,
        .jax_xgboost_flux_plugins = true,
        .flux_templates = "v2.3.0",
        .flux_v23_layout = true,
        .mpi_ssh_key_modes = true,
        .torch_runtime_num_proc_per_node = false,
        .qlora_excludes_dora = true,
        .torch_env_injection = true,
        .skip_foreign_managed_by = true,
        .webhook_v23_rules = true,
        .runtime_snapshot = true,
    },
}};

}  // namespace

// Rows in TrainerVersion order, so the version indexes them.
constexpr bool RowsInOrder() {
  for (std::size_t i = 0; i < kReleases.size(); ++i) {
    if (static_cast<std::size_t>(kReleases[i].version) != i) return false;
  }
  return true;
}
static_assert(RowsInOrder());

const Release& ReleaseOf(TrainerVersion version) { return kReleases[static_cast<std::size_t>(version)]; }

}  // namespace tjr::trainer
