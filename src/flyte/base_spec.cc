#include "flyte/base_spec.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "flyte/node_util.h"
#include "flyte/release.h"

namespace tjr::flyte {
namespace {

doc::Node EnvVar(const std::string& name, const std::string& value) {
  doc::Node var = doc::Node::Mapping();
  var.Set("name", doc::Node::String(name));
  if (!value.empty()) var.Set("value", doc::Node::String(value));
  return var;
}

}  // namespace

// AddRequiredNodeSelectorRequirements; `dedupe` is Flyte 2's.
void AddRequiredNodeSelectorRequirement(doc::Node* affinity, const doc::Node& requirement, bool dedupe) {
  doc::Node* node_affinity = affinity->FindMutable("nodeAffinity");
  if (IsNil(node_affinity)) node_affinity = &affinity->Set("nodeAffinity", doc::Node::Mapping());
  doc::Node* required = node_affinity->FindMutable("requiredDuringSchedulingIgnoredDuringExecution");
  if (IsNil(required)) {
    required = &node_affinity->Set("requiredDuringSchedulingIgnoredDuringExecution", doc::Node::Mapping());
  }
  std::vector<doc::Node> terms = Items(*required, "nodeSelectorTerms");
  if (terms.empty()) {
    doc::Node term = doc::Node::Mapping();
    term.Set("matchExpressions", Sequence({requirement}));
    required->Set("nodeSelectorTerms", Sequence({term}));
    return;
  }
  for (doc::Node& term : terms) {
    std::vector<doc::Node> expressions = Items(term, "matchExpressions");
    if (dedupe && std::find(expressions.begin(), expressions.end(), requirement) != expressions.end()) {
      continue;
    }
    expressions.push_back(requirement);
    term.Set("matchExpressions", Sequence(expressions));
  }
  required->Set("nodeSelectorTerms", Sequence(terms));
}

// DecorateEnvVars (k8s_resource_adds.go). Go map iteration is random;
// tjrender appends map entries sorted by name.
void DecorateEnv(doc::Node* container, const Task& task, const PluginConfig& config, bool literal_offloading_env) {
  std::vector<doc::Node> env = Items(*container, "env");
  const Execution& e = task.execution;
  if (!e.workflow.empty()) env.push_back(EnvVar("FLYTE_INTERNAL_EXECUTION_WORKFLOW", e.workflow));
  if (e.has_id) {
    env.push_back(EnvVar("FLYTE_INTERNAL_EXECUTION_ID", e.name));
    env.push_back(EnvVar("FLYTE_INTERNAL_EXECUTION_PROJECT", e.project));
    env.push_back(EnvVar("FLYTE_INTERNAL_EXECUTION_DOMAIN", e.domain));
    env.push_back(EnvVar("FLYTE_ATTEMPT_NUMBER", std::to_string(e.retry_attempt)));
    // IncludeConsoleURL: a `link_type` key in the task's config
    // (pod_helper.go:399-410); the URL (k8s_resource_adds.go:74-80) names
    // the node by its unique id, the node id for a top-level node.
    if (task.config.count("link_type") != 0 && !e.console_url.empty()) {
      std::string console = e.console_url;
      while (!console.empty() && console.back() == '/') console.pop_back();
      env.push_back(EnvVar("FLYTE_EXECUTION_URL", console + "/projects/" + e.project + "/domains/" + e.domain +
                                                      "/executions/" + e.name + "/nodeId/" + e.node_id + "/nodes"));
    }
    env.push_back(EnvVar("FLYTE_INTERNAL_TASK_PROJECT", task.task_project));
    env.push_back(EnvVar("FLYTE_INTERNAL_TASK_DOMAIN", task.task_domain));
    env.push_back(EnvVar("FLYTE_INTERNAL_TASK_NAME", task.name));
    env.push_back(EnvVar("FLYTE_INTERNAL_TASK_VERSION", task.task_version));
  }
  // GetLiteralOffloadingEnvVars (k8s_resource_adds.go:108-132): Flyte
  // v1.16 only (Flyte 2 has it commented out).
  const LiteralOffloadingConfig& offloading = config.literal_offloading;
  if (literal_offloading_env && offloading.enabled) {
    if (offloading.min_size_mb > 0) env.push_back(EnvVar("_F_L_MIN_SIZE_MB", std::to_string(offloading.min_size_mb)));
    if (offloading.max_size_mb > 0) env.push_back(EnvVar("_F_L_MAX_SIZE_MB", std::to_string(offloading.max_size_mb)));
  }
  for (const auto& [k, v] : e.environment) env.push_back(EnvVar(k, v));
  for (const auto& [k, v] : config.default_env_vars) env.push_back(EnvVar(k, v));
  // The values come from propeller's own environment, unknown here: empty.
  for (const auto& entry : config.default_env_vars_from_env) env.push_back(EnvVar(entry.first, ""));
  if (!env.empty()) container->Set("env", Sequence(env));

  std::vector<doc::Node> env_from = Items(*container, "envFrom");
  auto source = [](const char* kind, const std::string& name) {
    doc::Node ref = doc::Node::Mapping();
    ref.Set("name", doc::Node::String(name));
    ref.Set("optional", doc::Node::Bool(true));
    doc::Node from = doc::Node::Mapping();
    from.Set(kind, std::move(ref));
    return from;
  };
  for (const std::string& name : config.default_env_from_secrets) {
    env_from.push_back(source("secretRef", name));
  }
  for (const std::string& name : config.default_env_from_configmaps) {
    env_from.push_back(source("configMapRef", name));
  }
  if (!env_from.empty()) container->Set("envFrom", Sequence(env_from));
}

// UpdatePod (pod_helper.go:275-306).
void UpdatePod(doc::Node* spec, const Task& task, const PluginConfig& config,
               const std::vector<doc::Node>& resource_requests, Version version) {
  const bool interruptible = task.execution.interruptible;
  const doc::Node* restart = spec->Find("restartPolicy");
  if (IsNil(restart) || (restart->is_string() && restart->string_value().empty())) {
    spec->Set("restartPolicy", doc::Node::String("Never"));
  }
  // GetPodTolerations: resource tolerations (names of every regular
  // container's limits and requests; Go's set order is random, tjrender
  // sorts), interruptible, default; then the spec's own.
  std::set<std::string> names;
  for (const doc::Node& resources : resource_requests) {
    for (const char* key : {"limits", "requests"}) {
      if (const doc::Node* list = resources.Find(key)) {
        for (const doc::Field& f : list->fields()) names.insert(f.key);
      }
    }
  }
  std::vector<doc::Node> tolerations;
  for (const std::string& name : names) {
    auto it = config.resource_tolerations.find(name);
    if (it == config.resource_tolerations.end()) continue;
    for (const doc::Node& t : it->second.items()) tolerations.push_back(t);
  }
  if (interruptible) {
    for (const doc::Node& t : config.interruptible_tolerations.items()) tolerations.push_back(t);
  }
  for (const doc::Node& t : config.default_tolerations.items()) tolerations.push_back(t);
  for (const doc::Node& t : Items(*spec, "tolerations")) tolerations.push_back(t);
  if (!tolerations.empty()) spec->Set("tolerations", Sequence(tolerations));

  auto empty_string = [&](const char* key) {
    const doc::Node* v = spec->Find(key);
    return IsNil(v) || (v->is_string() && v->string_value().empty());
  };
  if (empty_string("serviceAccountName") && !task.execution.service_account.empty()) {
    spec->Set("serviceAccountName", doc::Node::String(task.execution.service_account));
  }
  if (empty_string("schedulerName") && !config.scheduler_name.empty()) {
    spec->Set("schedulerName", doc::Node::String(config.scheduler_name));
  }
  StringMap own = MapOf(spec->Find("nodeSelector"));
  StringMap selector = Union({&config.default_node_selector, &own});
  if (interruptible) selector = Union({&selector, &config.interruptible_node_selector});
  spec->Erase("nodeSelector");
  if (!selector.empty()) spec->Set("nodeSelector", MapNode(selector));
  if (IsNil(spec->Find("affinity")) && !config.default_affinity.is_null()) {
    spec->Set("affinity", config.default_affinity);
  }
  if (IsNil(spec->Find("securityContext")) && !config.default_pod_security_context.is_null()) {
    spec->Set("securityContext", config.default_pod_security_context);
  }
  if (config.enable_host_networking_pod) {
    spec->Erase("hostNetwork");
    if (*config.enable_host_networking_pod) spec->Set("hostNetwork", doc::Node::Bool(true));
  }
  if (IsNil(spec->Find("dnsConfig")) && !config.default_pod_dns_config.is_null()) {
    spec->Set("dnsConfig", config.default_pod_dns_config);
  }
  // ApplyInterruptibleNodeAffinity: affinity is always non-nil afterwards.
  doc::Node* affinity = spec->FindMutable("affinity");
  if (IsNil(affinity)) affinity = &spec->Set("affinity", doc::Node::Mapping());
  const doc::Node& requirement = interruptible ? config.interruptible_node_selector_requirement
                                               : config.non_interruptible_node_selector_requirement;
  if (!requirement.is_null()) AddRequiredNodeSelectorRequirement(affinity, requirement,
                                                                 ReleaseOf(version).dedupe_node_selector_requirements);
}

// template.Render's values for this task (see TemplateValues).
TemplateValues PlaceholderValues(const Task& task) {
  const Execution& e = task.execution;
  TemplateValues values;
  values["namespace"] = task.namespace_;
  // PerRetryUniqueKey: the generated name, leading non-letters -> "a",
  // other runs of non-alphanumerics -> "_".
  std::string key = e.generated_name;
  std::size_t lead = 0;
  while (lead < key.size() && !std::isalpha(static_cast<unsigned char>(key[lead])) && key[lead] != '_') ++lead;
  if (lead > 0) key = "a" + key.substr(lead);
  std::string cleaned;
  for (std::size_t i = 0; i < key.size();) {
    if (std::isalnum(static_cast<unsigned char>(key[i])) || key[i] == '_') {
      cleaned += key[i++];
      continue;
    }
    while (i < key.size() && !std::isalnum(static_cast<unsigned char>(key[i])) && key[i] != '_') ++i;
    cleaned += '_';
  }
  values["perretryuniquekey"] = cleaned;
  if (!e.input_prefix.empty()) {
    values["input"] = e.input_prefix + "/inputs.pb";
    values["inputprefix"] = e.input_prefix;
  }
  if (!e.output_prefix.empty()) {
    values["outputprefix"] = e.output_prefix;
    values["prevcheckpointprefix"] = e.prev_checkpoint_prefix.empty() ? "\"\"" : e.prev_checkpoint_prefix;
  }
  if (!e.raw_output_data_prefix.empty()) values["rawoutputdataprefix"] = e.raw_output_data_prefix;
  if (!e.checkpoint_prefix.empty()) values["checkpointoutputprefix"] = e.checkpoint_prefix;
  return values;
}

void RenderCommand(doc::Node* container, const TemplateValues& values) {
  for (const char* key : {"command", "args"}) {
    std::vector<doc::Node> items = Items(*container, key);
    if (items.empty()) continue;
    for (doc::Node& item : items) {
      if (item.is_string()) item = doc::Node::String(RenderTemplate(item.string_value(), values), item.location());
    }
    container->Set(key, Sequence(items));
  }
}

}  // namespace tjr::flyte
