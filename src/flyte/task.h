#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"
#include "flyte/task_resources.h"

// A Flyte task as tjrender reads it: the serialized TaskTemplate (flyteidl's
// JSON/YAML form, lowerCamelCase or snake_case field names) plus what the
// execution adds (see docs/manual.md "Flyte").
namespace tjr::flyte {

/// What flytepropeller knows about the execution of a task: its
/// TaskExecutionMetadata, as far as it shapes the Pod.
struct Execution {
  /// The task execution's generated name: the Pod's name and, for a
  /// container task, the container's.
  std::string generated_name;
  /// The workflow execution identifier (project, domain, name); without it
  /// no FLYTE_INTERNAL_* variables are added, as upstream.
  bool has_id = false;
  std::string project, domain, name;
  std::string node_id;
  std::int64_t retry_attempt = 0;
  std::string workflow;  ///< FLYTE_INTERNAL_EXECUTION_WORKFLOW when set
  StringMap labels;
  StringMap annotations;
  StringMap environment;  ///< the execution's env map
  std::string service_account;
  /// securityContext.runAs.executionIdentity: the subject who started the
  /// execution, its `execution-identity` label.
  std::string execution_identity;
  /// The FlyteWorkflow's consoleUrl (flyteadmin's console URL), for
  /// FLYTE_EXECUTION_URL of tasks whose config has a `link_type`.
  std::string console_url;
  bool interruptible = false;
  /// What propeller hands the plugins as platform resources
  /// (ResourceRequirements, Go form); null when not given, and then
  /// flyteadmin's launch sets it (task_resources.h).
  doc::Node platform_resources;
  /// The matchable TASK_RESOURCE attributes flyteadmin finds for the
  /// execution's project, domain and workflow, when given.
  std::optional<TaskResources> task_resource_attributes;
  doc::Node override_resources;  ///< ResourceRequirements (Go form), never null
  std::string container_image;   ///< node-level container_image override
  doc::Node extended_resources;  ///< node-level extended_resources override, or null
  /// Node-level pod_template override (TaskNodeOverrides.pod_template).
  bool has_pod_template_override = false;
  doc::Node override_pod_spec;
  std::string override_primary_container_name;
  StringMap override_labels, override_annotations;
  doc::Node owner_reference;  ///< set as the Pod's only ownerReference when given
  /// Storage paths for the {{.Input}}, {{.OutputPrefix}}, ... placeholders;
  /// a placeholder whose path is not given stays as written.
  std::string input_prefix, output_prefix, raw_output_data_prefix, checkpoint_prefix,
      prev_checkpoint_prefix;
};

/// flyteidl core.Secret (flyteidl/protos/flyteidl/core/security.proto), a
/// secret request of TaskTemplate.securityContext.
struct Secret {
  std::string group, group_version, key, env_var;
  /// core.Secret.MountType: 0 ANY, 1 ENV_VAR, 2 FILE; other numbers are
  /// kept (proto3 enums are open) and refused when marshalled, as upstream.
  std::int64_t mount_requirement = 0;
  doc::Node at;  ///< the secret as written, for locations
};

struct Task {
  std::string name;  ///< TaskTemplate.id.name
  std::string namespace_;
  std::string file;
  Location location;
  std::string type;
  std::int64_t task_type_version = 0;
  bool has_container = false;
  doc::Node container;  ///< the Kubernetes container built from TaskTemplate.container
  /// A `sidecar` task of task_type_version 0 or 1 with its pod spec in
  /// `custom` (0: {podSpec, primaryContainerName, annotations, labels};
  /// 1: the pod spec itself); -1 otherwise.
  int custom_sidecar_version = -1;
  doc::Node custom_pod_spec;  ///< Go form, null when missing
  std::string custom_primary_container_name;
  bool has_k8s_pod = false;
  doc::Node pod_spec;  ///< k8sPod.podSpec (Go form)
  StringMap pod_labels, pod_annotations;
  StringMap config;
  std::string pod_template_name;
  StringMap metadata_labels, metadata_annotations;  ///< TaskTemplate.metadata.metadata
  std::string task_project, task_domain, task_version;
  doc::Node extended_resources;  ///< TaskTemplate.extendedResources as written, or null
  Execution execution;
  std::vector<Secret> secrets;  ///< TaskTemplate.securityContext.secrets
};

/// True for a document tjrender reads as a Flyte task: a mapping with no
/// apiVersion and no kind holding a TaskTemplate (a `container`, `k8sPod` or
/// `k8s_pod` field, or `type: sidecar` with `custom`) at its top level, under `template`, `spec.template` or
/// `closure.compiledTask.template` (flytectl's admin Task).
bool IsFlyteTaskDocument(const doc::Node& document);

/// Reads a Flyte task document. `default_namespace` applies when neither
/// the document's `namespace` nor `execution.namespace` is set.
Result<Task> ParseTask(const doc::Node& document, const std::string& file,
                       const std::string& default_namespace);

}  // namespace tjr::flyte
