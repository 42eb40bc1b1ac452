#pragma once

#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/compose.h"

// Findings beyond upstream: what Flyte accepts silently but rarely means.
// Each is a warning whose message starts with "[<rule>] ".
namespace tjr::flyte {

/// Looks at the runtime template against the base spec about to be merged:
///  - flyte-template-container-dropped: a template container or init
///    container that applies to no container of the Pod (not default /
///    primary / default-init, and no base container of that name that the
///    version merges it into; primary-init applies only to a co-pilot
///    downloader, which tjrender never has);
///  - flyte-template-value-sticky: a pod-level boolean the template sets to
///    true (hostNetwork, hostPID, hostIPC, shareProcessNamespace,
///    automountServiceAccountToken, setHostnameAsFQDN), which no task value
///    can turn off, since false never overrides in the merge.
void CheckTemplate(const StoredTemplate& stored, const doc::Node& base_spec,
                   const std::string& primary, Version version, Diagnostics* out);

/// flyte-duplicate-env: a container of the rendered Pod with two env
/// entries of one name (template, task, Flyte and config values are
/// appended, never deduplicated).
void CheckDuplicateEnv(const doc::Node& pod, const Task& task, Diagnostics* out);

/// What changes the Pod in a cluster but is not in tjrender's inputs:
///  - flyte-secret-injected-at-admission: per secret request, Flyte's pod
///    webhook (selected by `inject-flyte-secrets: "true"`) adds the secret
///    as an env var or a volume when the Pod is created, as its secret
///    manager configuration says; the rendered Pod is the one before it;
///  - flyte-console-url-unknown: the task's config has a `link_type`, so
///    propeller sets FLYTE_EXECUTION_URL from flyteadmin's console URL,
///    and no `execution.consoleUrl` gives it.
void CheckUnknownInputs(const Task& task, Diagnostics* out);

/// flyte-task-resources-assumed: flyteadmin's launch (task_resources.h)
/// decides the task's default and maximum resources, and neither
/// `execution.platformResources`, `execution.taskResourceAttributes` nor a
/// `task_resources` configuration is among the inputs, so flyteadmin's
/// built-in ones are assumed. Called before the launch.
void CheckTaskResourcesKnown(const Task& task, const PluginConfig& config, Version version, Diagnostics* out);

}  // namespace tjr::flyte
