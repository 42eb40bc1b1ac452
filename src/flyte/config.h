#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/task_resources.h"

// flytepropeller's `plugins.k8s` configuration section (flyteplugins
// pluginmachinery/flytek8s/config/config.go, K8sPluginConfig), as far as it
// shapes a task Pod.
namespace tjr::flyte {

using StringMap = std::map<std::string, std::string>;

/// propeller's `literal-offloading-config` (flytepropeller v1.16.8
/// pkg/controller/config/config.go:131-138 defaults, :187-195 fields).
struct LiteralOffloadingConfig {
  bool enabled = false;
  std::int64_t min_size_mb = 10;    ///< min-size-in-mb-for-offloading
  std::int64_t max_size_mb = 1000;  ///< max-size-in-mb-for-offloading
};

/// The settings of `plugins.k8s` that pod construction reads. Kubernetes
/// values are kept in encoding/json's form of their Go type.
struct PluginConfig {
  /// nullopt: not configured, so the built-in default map applies
  /// ({cluster-autoscaler.kubernetes.io/safe-to-evict: "false"}). A
  /// configured map replaces it (flytestdlib decodes with ZeroFields).
  std::optional<StringMap> default_annotations;
  StringMap default_labels;
  StringMap default_env_vars;
  /// Values are names of variables in propeller's own environment, which
  /// tjrender cannot see: they render as empty values, as an unset
  /// variable does.
  StringMap default_env_vars_from_env;
  std::vector<std::string> default_env_from_configmaps;
  std::vector<std::string> default_env_from_secrets;
  StringMap default_node_selector;
  StringMap interruptible_node_selector;
  doc::Node default_tolerations;        ///< []Toleration or null
  doc::Node interruptible_tolerations;  ///< []Toleration or null
  std::map<std::string, doc::Node> resource_tolerations;  ///< resource name -> []Toleration
  doc::Node default_affinity;           ///< Affinity or null
  doc::Node interruptible_node_selector_requirement;      ///< NodeSelectorRequirement or null
  doc::Node non_interruptible_node_selector_requirement;  ///< NodeSelectorRequirement or null
  doc::Node gpu_unpartitioned_node_selector_requirement;  ///< NodeSelectorRequirement or null
  doc::Node gpu_unpartitioned_toleration;                 ///< Toleration or null
  doc::Node default_pod_security_context;  ///< PodSecurityContext or null
  doc::Node default_security_context;      ///< SecurityContext or null
  doc::Node default_pod_dns_config;        ///< PodDNSConfig or null
  std::optional<bool> enable_host_networking_pod;
  std::string scheduler_name;
  std::string image_pull_policy;
  std::string default_pod_template_name;
  std::string gpu_resource_name = "nvidia.com/gpu";
  std::string gpu_device_node_label = "k8s.amazonaws.com/accelerator";
  std::string gpu_partition_size_node_label = "k8s.amazonaws.com/gpu-partition-size";
  std::string default_cpus = "1000m";
  std::string default_memory = "1024Mi";
  bool inject_finalizer = false;
  /// The namespace propeller runs in (POD_NAMESPACE, "flyte" when unset):
  /// the namespace of the ConfigMap the configuration came from.
  std::string propeller_namespace = "flyte";
  /// Where the configuration came from, for messages ("" = built-in).
  Location location;
  /// Not plugins.k8s but the `propeller` section beside it
  /// (ApplyPropellerSection): the `_F_L_*` env vars of every container.
  LiteralOffloadingConfig literal_offloading;
  /// Not propeller's either: flyteadmin's `task_resources` (the built-in
  /// ones unless a configuration among the inputs has the section).
  TaskResources task_resources = BuiltInTaskResources();
  bool task_resources_configured = false;
};

/// Reads what pod construction needs of a `propeller` section (its
/// `literal-offloading-config`) into `config`, decoded as ParsePluginConfig
/// decodes plugins.k8s.
Status ApplyPropellerSection(const doc::Node& propeller_section, PluginConfig* config);

/// Decodes a `plugins.k8s` mapping as flytestdlib (v1.16.8, viper v1.21)
/// does: map keys are lower-cased unless they hold a "." or sit inside a
/// list, so `default-env-vars: {AWS_REGION: x}` yields `aws_region` and the
/// list form `default-env-vars: [{AWS_REGION: x}]` keeps the case; a list of
/// maps stands for a map, a single value for a list. Unknown keys are
/// ignored; a value of the wrong shape is an error at its location.
Result<PluginConfig> ParsePluginConfig(const doc::Node& k8s_section);

/// The `plugins.k8s` mapping of a propeller configuration document (the
/// top level of a config file, `plugins: {k8s: ...}`), or nullptr.
const doc::Node* FindK8sSection(const doc::Node& config_document);

/// A ConfigMap that carries propeller configuration, as the Flyte Helm charts
/// ship it (flyte-core: `flyte-propeller-config` with keys such as
/// `k8s.yaml`; flyte-binary: `<release>-config`): each `data` value whose key
/// ends in .yaml or .yml is parsed, in key order, and the `plugins.k8s`
/// mappings found are merged as flytestdlib merges config files (nested
/// mappings merge, other values replace). nullopt when none has one.
/// The `propeller` sections of the same documents, merged alike, go to
/// `*propeller_section`, and flyteadmin's `task_resources` sections to
/// `*task_resources_section` (null when none has one: flyte-core ships
/// flyteadmin's in another ConfigMap, flyte-admin-base-config).
/// The configuration a ConfigMap carries as propeller reads it when the
/// ConfigMap is mounted as its config files: each `data` value whose key
/// ends in .yaml or .yml, parsed, merged in key order (later keys win, as
/// viper merges config files; values that do not parse as YAML mappings
/// are no configuration and left out). nullopt when no value is one.
std::optional<doc::Node> ConfigMapDocument(const doc::Node& configmap);

Result<std::optional<doc::Node>> K8sSectionFromConfigMap(const doc::Node& configmap,
                                                         doc::Node* propeller_section = nullptr,
                                                         doc::Node* task_resources_section = nullptr);

/// The propeller configuration a Flyte chart's Helm values file carries,
/// as the chart would put it in propeller's ConfigMap, so a deployment
/// repository's values need no hand-extracted config file.
struct ChartValuesConfig {
  /// A configuration document: `plugins.k8s`, `propeller`, and
  /// flyteadmin's `task_resources` where the values have them.
  doc::Node document;
  std::string chart;  ///< "flyte-core" or "flyte-binary"
  std::string path;   ///< where plugins.k8s (else task_resources) sits ("configmap.k8s", "flyte-core.configmap.k8s")
  Location at;        ///< of that plugins.k8s mapping
  /// propeller's namespace when the values name it (flyte-core's
  /// `forceNamespace`, else the release namespace, which values do not tell).
  std::string propeller_namespace;
};

/// flyte-core (v1.16.8 charts/flyte-core/templates/propeller/configmap.yaml)
/// writes each of `configmap.{admin,catalog,copilot,core,enabled_plugins,k8s,
/// logger,otel,resource_manager}` into flyte-propeller-config as its own
/// file (`k8s.yaml: {{ tpl (toYaml .Values.configmap.k8s) }}`), merged in key
/// order as propeller reads them, and `configmap.task_resource_defaults` into
/// flyteadmin's; flyte-binary (charts/flyte-binary/templates/configmap.yaml)
/// writes `configuration.inline` as `100-inline-config.yaml`. A values
/// document with such a `plugins.k8s` mapping (or, for flyte-core, only
/// `configmap.task_resource_defaults.task_resources`), at its top or under one key
/// (an umbrella chart's values for its flyte-core or flyte-binary
/// dependency), gives that configuration; nullopt otherwise.
std::optional<ChartValuesConfig> ConfigFromChartValues(const doc::Node& values);

/// flyteadmin's `task_resources` mapping at the top of a configuration
/// document, or nullptr.
const doc::Node* FindTaskResourcesSection(const doc::Node& config_document);

/// Merges `overlay` into `base` the way viper merges config files.
void MergeConfigDocuments(doc::Node* base, const doc::Node& overlay);

}  // namespace tjr::flyte
