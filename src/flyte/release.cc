#include "flyte/release.h"

namespace tjr::flyte {

const std::vector<Release>& Releases() {
  static const std::vector<Release> releases = {
      {
          .version = Version::kV1_16,
          .target = "flyte-v1.16",
          .upstream = "flyteorg/flyte v1.16.8",
          // The cluster's API server, not propeller, admits the Pod, so
          // propeller's client k8s.io/api decides nothing here. Its Pods
          // are built from the Kubernetes 1.34 types (typed_value.h), and
          // 1.34 is the oldest cluster release tjrender admits for (the
          // Trainer v2.1 row too): a fleet's oldest cluster is the one a
          // Pod must pass.
          .kubernetes_release = "1.34",
          .launched_by_flyteadmin = true,
          .task_metadata_layer = true,
          .execution_identity_label = true,
          .literal_offloading_env = true,
          .template_container_resources = true,
          .merge_init_container_resources = true,
          .primary_named_template_ignored = true,
          .dedupe_node_selector_requirements = false,
      },
      {
          // executor/pkg/plugin at 6fadb90d: no flyteadmin, no template
          // metadata layer, no execution-identity label
          // (task_exec_metadata.go:93-117).
          .version = Version::kV2,
          .target = "flyte-v2",
          .upstream = "Flyte 2 (branch main 6fadb90d)",
          // As v1.16: the same Kubernetes 1.34 types, the oldest row.
          .kubernetes_release = "1.34",
          .launched_by_flyteadmin = false,
          .task_metadata_layer = false,
          .execution_identity_label = false,
          .literal_offloading_env = false,
          .template_container_resources = false,
          .merge_init_container_resources = false,
          .primary_named_template_ignored = false,
          .dedupe_node_selector_requirements = true,
      },
  };
  return releases;
}

const Release& ReleaseOf(Version version) {
  for (const Release& release : Releases()) {
    if (release.version == version) return release;
  }
  return Releases().front();
}

std::optional<Version> VersionForTarget(std::string_view target) {
  for (const Release& release : Releases()) {
    if (release.target == target) return release.version;
  }
  return std::nullopt;
}

}  // namespace tjr::flyte
