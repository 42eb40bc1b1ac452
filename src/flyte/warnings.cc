#include "flyte/warnings.h"

#include <map>
#include <set>

#include "flyte/node_util.h"
#include "flyte/task_resources.h"
#include "flyte/release.h"

namespace tjr::flyte {
namespace {

Diagnostic Warning(std::string_view rule, Location at, std::string message) {
  return MakeWarning(at, rule, std::move(message));
}

void CheckList(const StoredTemplate& stored, const doc::Node& base_spec, const std::string& primary,
               Version version, bool init, Diagnostics* out) {
  const char* key = init ? "initContainers" : "containers";
  const std::string default_name = init ? "default-init" : "default";
  const std::string primary_name = init ? "primary-init" : "primary";
  const doc::Node* templates = stored.written.Find(key);
  if (templates == nullptr || !templates->is_sequence()) return;
  std::set<std::string> base_names;
  if (const doc::Node* base = base_spec.Find(key); base != nullptr) {
    for (const doc::Node& c : base->items()) base_names.insert(NameOf(c));
  }
  const std::string& base_primary = init ? std::string() : primary;
  for (std::size_t i = 0; i < templates->size(); ++i) {
    const doc::Node& t = (*templates)[i];
    const std::string name = NameOf(t);
    if (name == default_name) {
      if (!init || !base_names.empty()) continue;
      out->push_back(Warning(kRuleDroppedContainer, t.location(),
                             "template init container \"default-init\" applies to the task's init "
                             "containers; this task has none, so it is dropped"));
      continue;
    }
    if (name == primary_name) {
      if (!init) continue;
      out->push_back(Warning(kRuleDroppedContainer, t.location(),
                             "template init container \"primary-init\" applies only to Flyte's "
                             "co-pilot downloader; this task has none, so it is dropped"));
      continue;
    }
    bool applies = base_names.contains(name);
    const bool primary_named_ignored = ReleaseOf(version).primary_named_template_ignored;
    if (primary_named_ignored && (name == base_primary || name == default_name)) applies = false;
    if (applies) continue;
    std::string why = name == base_primary && primary_named_ignored
                          ? " has the primary container's name, which Flyte v1.16.3+ ignores (only "
                            "\"primary\" applies to the primary)"
                          : " matches no " + std::string(init ? "init container" : "container") +
                                " of the task and is not \"" + default_name + "\" or \"" +
                                primary_name + "\"";
    out->push_back(Warning(kRuleDroppedContainer, t.location(),
                           std::string("template ") + (init ? "init container" : "container") +
                               " \"" + name + "\"" + why + ": Flyte drops it silently"));
  }
}

}  // namespace

void CheckTemplate(const StoredTemplate& stored, const doc::Node& base_spec,
                   const std::string& primary, Version version, Diagnostics* out) {
  CheckList(stored, base_spec, primary, version, false, out);
  CheckList(stored, base_spec, primary, version, true, out);
  for (const char* field : {"hostNetwork", "hostPID", "hostIPC", "shareProcessNamespace",
                            "automountServiceAccountToken", "setHostnameAsFQDN"}) {
    const doc::Node* value = stored.written.Find(field);
    if (value == nullptr || !value->is_bool() || !value->bool_value()) continue;
    out->push_back(Warning(kRuleStickyValue, value->location(),
                           std::string("the runtime PodTemplate sets ") + field +
                               ": true; no task can turn it off, because Flyte's merge never lets "
                               "false override true"));
  }
}

void CheckDuplicateEnv(const doc::Node& pod, const Task& task, Diagnostics* out) {
  const doc::Node* spec = pod.Find("spec");
  if (spec == nullptr) return;
  for (const char* key : {"initContainers", "containers"}) {
    const doc::Node* list = spec->Find(key);
    if (list == nullptr) continue;
    for (const doc::Node& c : list->items()) {
      const doc::Node* env = c.Find("env");
      if (env == nullptr) continue;
      std::map<std::string, int> counts;
      std::vector<std::string> order;
      for (const doc::Node& var : env->items()) {
        std::string name = NameOf(var);
        if (counts[name]++ == 1) order.push_back(name);
      }
      for (const std::string& name : order) {
        out->push_back(Warning(kRuleDuplicateEnv, task.location,
                               "container \"" + NameOf(c) + "\" of task " + task.name +
                                   " has env var " + name + " " +
                                   std::to_string(counts[name]) +
                                   " times (Flyte appends template, task and configured values "
                                   "without deduplication; the kubelet uses the last)"));
      }
    }
  }
}

void CheckUnknownInputs(const Task& task, Diagnostics* out) {
  for (std::size_t i = 0; i < task.secrets.size(); ++i) {
    out->push_back(Warning(kRuleSecretInjected, task.secrets[i].at.location(),
                           "task " + task.name + " requests a secret (flyte.secrets/s" + std::to_string(i) +
                               "): Flyte's pod webhook adds it to the Pod at admission, as an env var or a "
                               "volume per its secret manager configuration, which tjrender does not see; "
                               "the rendered Pod is the one before the webhook"));
  }
  if (task.config.count("link_type") != 0 && task.execution.console_url.empty() && task.execution.has_id) {
    out->push_back(Warning(kRuleConsoleUrlUnknown, task.location,
                           "task " + task.name + " has a link_type in its config, so the Pod gets "
                           "FLYTE_EXECUTION_URL from flyteadmin's console URL; give it as execution.consoleUrl "
                           "to render it"));
  }
}

void CheckTaskResourcesKnown(const Task& task, const PluginConfig& config, Version version, Diagnostics* out) {
  if (!LaunchedByFlyteAdmin(version) || !task.execution.platform_resources.is_null() ||
      task.execution.task_resource_attributes || config.task_resources_configured) {
    return;
  }
  out->push_back(Warning(kRuleTaskResourcesAssumed, task.location,
                         "task " + task.name + ": flyteadmin's task resource defaults and limits are not among "
                         "the inputs, so its built-in ones are assumed (defaults cpu 2, memory 200Mi; limits "
                         "cpu 2, memory 1Gi, gpu 1); give flyteadmin's task_resources configuration or "
                         "execution.taskResourceAttributes"));
}

}  // namespace tjr::flyte
