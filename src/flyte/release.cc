#include "flyte/release.h"

namespace tjr::flyte {

const std::vector<Release>& Releases() {
  static const std::vector<Release> releases = {
      {
          .version = Version::kV1_16,
          .target = "flyte-v1.16",
          .upstream = "flyteorg/flyte v1.16.8",
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
