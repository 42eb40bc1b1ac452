#pragma once

#include <string>

#include "doc/node.h"
#include "flyte/compose.h"
#include "flyte/config.h"
#include "flyte/release.h"
#include "flyte/task.h"

// What `tjrender explain` needs to tell where each value of a task's Pod
// came from: the inputs as the render read them and the pod spec between
// the steps of ComposePod. Kept only with FlyteOptions::keep_traces; the
// render path never builds one.
namespace tjr::flyte {

/// How the runtime PodTemplate was chosen (reference §1.2).
enum class TemplateRole {
  kNone,        ///< none applied
  kDefault,     ///< found by plugins.k8s default-pod-template-name
  kTaskNamed,   ///< found by the task's metadata.pod_template_name
};

/// The base pod spec and ObjectMeta maps at one step, before the merge
/// onto the template.
struct BaseSnapshot {
  doc::Node spec;
  StringMap labels, annotations;
};

/// What ComposePod records when asked to (its `trace` argument).
struct ComposeTrace {
  TemplateRole role = TemplateRole::kNone;
  std::string template_name;       ///< the name looked up ("" when none)
  std::string template_namespace;  ///< where it was found
  StoredTemplate template_used;    ///< a copy (the store does not outlive the render)
  std::string primary;             ///< the primary container's name
  BaseSnapshot after_base;         ///< step A (with a node-level pod_template override)
  BaseSnapshot customized;         ///< steps C-E: resources, env, plugin configuration
  /// After step G (the merge) and step H (GPU, shared memory, image
  /// override): the Pod's spec and merged ObjectMeta, before steps I-J.
  doc::Node extended_spec;
  doc::Node merged_metadata;
};

/// One task's render, for explain.
struct TaskTrace {
  doc::Node task_document;  ///< as written
  std::string task_file;
  Task task_as_written;     ///< as ParseTask read it
  Task task;                ///< as propeller receives it (after flyteadmin's launch)
  /// The document that carried plugins.k8s (null: built-in defaults) and
  /// the one that carried flyteadmin's task_resources (null: built-in),
  /// with their files.
  doc::Node config_document;
  std::string config_file;
  doc::Node task_resources_section;
  std::string task_resources_file;
  PluginConfig config;
  Version version = kDefaultVersion;
  std::string target;  ///< "flyte-v1.16"
  ComposeTrace compose;
  doc::Node pod;  ///< the rendered Pod
};

}  // namespace tjr::flyte
