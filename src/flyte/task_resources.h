#pragma once

#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "typed/quantity.h"

// What flyteadmin does to a task's resources when it launches an execution
// (flyteorg/flyte v1.16.8): it picks the task resource defaults and limits
// (util/resources.go GetTaskResources), rewrites every container task's
// resources with them (execution_manager.go:184-275 setCompiledTaskDefaults)
// and hands them to propeller in the FlyteWorkflow's executionConfig
// (workflowengine/impl/prepare_execution.go:81-113), which passes them to the
// plugins as platform resources (taskexec_context.go:194-209).
namespace tjr::flyte {

struct Task;
enum class Version;

/// runtimeInterfaces.TaskResourceSet; Go's zero Quantity where unset.
struct TaskResourceSet {
  typed::Quantity cpu, gpu, memory, ephemeral_storage;
};

/// workflowengine TaskResources: what a task gets when it asks for nothing
/// (defaults) and the most it may get (limits).
struct TaskResources {
  TaskResourceSet defaults, limits;
};

/// flyteadmin's built-in `task_resources` (runtime/task_resource_provider.go:12-22):
/// defaults cpu 2, memory 200Mi; limits cpu 2, memory 1Gi, gpu 1.
TaskResources BuiltInTaskResources();

/// Decodes a `task_resources` configuration section over `out` as
/// flytestdlib does (viper/viper.go:406-486: a copy of the current value,
/// fields matched case-insensitively, quantities through
/// Quantity.UnmarshalJSON): a field the section leaves out keeps its value,
/// so `limits: {cpu: 4}` keeps the built-in gpu limit of 1. Keys that are no
/// field (the Helm chart's `storage`) are ignored. A quantity that does not
/// parse stops flyteadmin from starting: an error at its location.
Status DecodeTaskResourcesSection(const doc::Node& section, TaskResources* out);

/// The matchable TASK_RESOURCE attributes of a project, domain or workflow
/// (admin.TaskResourceAttributes {defaults, limits}, each TaskResourceSpec
/// {cpu, gpu, memory, ephemeralStorage}), which replace the configuration
/// whole (resources.go:80-118): a field left out is zero, and a value that
/// does not parse is zero too (parseQuantityNoError logs and goes on).
/// Errors: a field of the wrong shape.
Result<TaskResources> FromTaskResourceAttributes(const doc::Node& attributes, const std::string& path);

/// convertTaskResourcesToRequirements: a ResourceRequirements in Go form
/// with cpu, memory, ephemeral-storage and nvidia.com/gpu in both requests
/// and limits, "0" where unset; since every key is there, the plugin's
/// default-cpus and default-memory never apply in a cluster.
doc::Node PlatformResourcesOf(const TaskResources& resources);

/// setCompiledTaskDefaults on a container task's resources (Go form, as
/// ToK8sResourceList reads the list flyteadmin writes): cpu and memory
/// always, ephemeral-storage and the GPU when the task or the platform
/// default names them, each AdjustOrDefaultResource of the task's request
/// and limit against the platform's, printed by Quantity.String(); zero
/// values and every other resource dropped.
void SetCompiledTaskDefaults(doc::Node* container, const TaskResources& platform);

/// Whether tasks of `version` are launched through flyteadmin. Flyte 2 has
/// no flyteadmin; its executor hands the plugins empty platform resources
/// (executor/pkg/plugin/task_exec_metadata.go:293-295).
bool LaunchedByFlyteAdmin(Version version);

/// The task as propeller receives it, for `version`. With `execution.platformResources`
/// given, that is what propeller is handed (`{}` is flyteplugins' unit
/// tests) and the task is left as it is. Otherwise flyteadmin's step is
/// applied: the execution's `taskResourceAttributes`, else the configured
/// `task_resources` (`configured`, the built-in ones when none is). Flyte 2:
/// empty platform resources.
void LaunchThroughFlyteAdmin(Task* task, const TaskResources& configured, Version version);

}  // namespace tjr::flyte
