#pragma once

#include <vector>

#include "doc/node.h"
#include "flyte/compose.h"
#include "flyte/config.h"
#include "flyte/task.h"
#include "flyte/template_render.h"

// What Flyte writes into the task's own pod spec before the template merge:
// env decoration (C3), command/args placeholders (C1) and the plugin
// configuration (UpdatePod, step E) (reference flyte-podtemplate.md §1.3).
namespace tjr::flyte {

/// DecorateEnvVars (k8s_resource_adds.go): the Flyte execution variables,
/// the literal-offloading variables (with `literal_offloading_env`, when
/// the propeller config enables them), the execution env map, default-env-vars and default-env-vars-from-env
/// appended to `container`'s env; default-env-from-secrets/configmaps to its
/// envFrom. Go iterates the maps randomly; tjrender appends them sorted.
void DecorateEnv(doc::Node* container, const Task& task, const PluginConfig& config, bool literal_offloading_env);

/// UpdatePod (pod_helper.go:275-306) with the regular containers' resources
/// after customization (for resource-tolerations).
void UpdatePod(doc::Node* spec, const Task& task, const PluginConfig& config,
               const std::vector<doc::Node>& resource_requests, Version version);

/// AddRequiredNodeSelectorRequirements (pod_helper.go:59-75): ANDs
/// `requirement` into every required node-selector term of `affinity`, or
/// makes the first term; `dedupe` (Flyte 2) skips a term that holds it.
void AddRequiredNodeSelectorRequirement(doc::Node* affinity, const doc::Node& requirement, bool dedupe);

/// template.Render's values for this task (see TemplateValues).
TemplateValues PlaceholderValues(const Task& task);

/// Renders the placeholders of `container`'s command and args.
void RenderCommand(doc::Node* container, const TemplateValues& values);

}  // namespace tjr::flyte
