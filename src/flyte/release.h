#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Flyte versions tjrender emulates, each one row of data: where its
// behaviour was read from and what it does differently, as named flags.
// Code asks the row (`ReleaseOf(version).flag`), never which version it is
// (scripts/check-release-comparisons holds it to that).
namespace tjr::flyte {

/// The emulated Flyte version.
enum class Version {
  kV1_16,  ///< flyteorg/flyte v1.16.8 (master 89cf9cc7)
  kV2,     ///< Flyte 2 (branch main 6fadb90d), the differences of flyte-podtemplate.md §5
};

/// The version Flyte tasks render for when no target names one.
inline constexpr Version kDefaultVersion = Version::kV1_16;

struct Release {
  Version version;
  std::string_view target;    ///< the --target name, "flyte-v1.16"
  std::string_view upstream;  ///< the release or commit the behaviour was read from
  /// The Kubernetes release whose API server admits its PodTemplates and
  /// Pods (admission::KubernetesRulesOf: "1.34").
  std::string_view kubernetes_release;
  /// flyteadmin's launch step sets the task's resources (its task_resources
  /// or the project's attributes, setCompiledTaskDefaults), which reach the
  /// plugins as the platform resources; Flyte 2 has no flyteadmin.
  bool launched_by_flyteadmin;
  /// The task template's metadata labels and annotations are a layer of the
  /// Pod's (Flyte 2 has no such layer).
  bool task_metadata_layer;
  /// The `execution-identity` label from the run-as identity.
  bool execution_identity_label;
  /// `_F_L_MIN_SIZE_MB` / `_F_L_MAX_SIZE_MB` env from propeller's
  /// literal-offloading-config.
  bool literal_offloading_env;
  /// A container template's resources are its container's defaults.
  bool template_container_resources;
  /// Init containers' resources are merged with the defaults (kMergeExisting)
  /// rather than only kept within the limits (kEnsureInRange).
  bool merge_init_container_resources;
  /// A container template named like the task's primary container does not
  /// apply to it (v1.16.3+: only "primary" does); otherwise only the
  /// template named "primary" is reserved.
  bool primary_named_template_ignored;
  /// A node selector requirement already present is not added again.
  bool dedupe_node_selector_requirements;
};

/// Every emulated version, oldest first.
const std::vector<Release>& Releases();
/// The row of `version`.
const Release& ReleaseOf(Version version);
/// The version a --target names ("flyte-v1.16", "flyte-v2"), if any.
std::optional<Version> VersionForTarget(std::string_view target);

}  // namespace tjr::flyte
