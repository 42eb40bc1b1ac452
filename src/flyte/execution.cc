#include <string>
#include <tuple>
#include <utility>

#include "flyte/task_fields.h"
#include "flyte/task_resources.h"
#include "flyte/typed_value.h"

namespace tjr::flyte {

Status ParseExecution(const doc::Node& e, Execution* out) {
  Result<std::string> s = String(e, "generatedName", "generated_name", "execution.generatedName");
  if (!s.ok()) return s.take_error();
  out->generated_name = *s;
  if (const doc::Node* id = Get(e, "id")) {
    out->has_id = true;
    for (auto [field, target] : {std::pair{"project", &out->project},
                                 std::pair{"domain", &out->domain}, std::pair{"name", &out->name}}) {
      Result<std::string> v = String(*id, field, "", std::string("execution.id.") + field);
      if (!v.ok()) return v.take_error();
      *target = *v;
    }
  }
  if (Result<std::string> v = String(e, "nodeId", "node_id", "execution.nodeId"); v.ok()) {
    out->node_id = *v;
  } else {
    return v.take_error();
  }
  if (const doc::Node* attempt = Get(e, "retryAttempt", "retry_attempt")) {
    if (!attempt->is_int()) return Error(*attempt, "execution.retryAttempt", "must be an integer");
    out->retry_attempt = attempt->int_value();
  }
  if (Result<std::string> v = String(e, "workflow", "", "execution.workflow"); v.ok()) {
    out->workflow = *v;
  } else {
    return v.take_error();
  }
  // GetK8sServiceAccount: the names a transcriber might use.
  for (auto [camel, snake] : {std::pair{"serviceAccount", "service_account"},
                              std::pair{"k8sServiceAccount", "k8s_service_account"},
                              std::pair{"serviceAccountName", "service_account_name"}}) {
    Result<std::string> v = String(e, camel, snake, std::string("execution.") + camel);
    if (!v.ok()) return v.take_error();
    if (!v->empty()) out->service_account = *v;
  }
  // ExecutionSpec.security_context (core.SecurityContext): runAs.
  if (const doc::Node* context = Get(e, "securityContext", "security_context")) {
    if (const doc::Node* run_as = Get(*context, "runAs", "run_as")) {
      Result<std::string> v = String(*run_as, "executionIdentity", "execution_identity",
                                     "execution.securityContext.runAs.executionIdentity");
      if (!v.ok()) return v.take_error();
      out->execution_identity = *v;
    }
  }
  if (Result<std::string> v = String(e, "consoleUrl", "console_url", "execution.consoleUrl"); v.ok()) {
    out->console_url = *v;
  } else {
    return v.take_error();
  }
  if (const doc::Node* flag = Get(e, "interruptible")) {
    if (!flag->is_bool()) return Error(*flag, "execution.interruptible", "must be a boolean");
    out->interruptible = flag->bool_value();
  }
  if (Status st = StringMapOf(Get(e, "labels"), "execution.labels", &out->labels); !st.ok()) return st;
  if (Status st = StringMapOf(Get(e, "annotations"), "execution.annotations", &out->annotations);
      !st.ok()) {
    return st;
  }
  const doc::Node* environment = Get(e, "environment", "environment_variables");
  if (environment == nullptr) environment = Get(e, "environmentVariables");
  if (Status st = StringMapOf(environment, "execution.environment",
                              &out->environment);
      !st.ok()) {
    return st;
  }
  if (const doc::Node* platform = Get(e, "platformResources", "platform_resources")) {
    Result<doc::Node> r = Resources(platform, "execution.platformResources");
    if (!r.ok()) return r.take_error();
    out->platform_resources = std::move(*r);
  }
  if (const doc::Node* attributes = Get(e, "taskResourceAttributes", "task_resource_attributes")) {
    Result<TaskResources> r = FromTaskResourceAttributes(*attributes, "execution.taskResourceAttributes");
    if (!r.ok()) return r.take_error();
    out->task_resource_attributes = *r;
  }
  out->override_resources = doc::Node::Mapping();
  for (auto [camel, snake, target] :
       {std::tuple{"inputPrefix", "input_prefix", &out->input_prefix},
        std::tuple{"outputPrefix", "output_prefix", &out->output_prefix},
        std::tuple{"rawOutputDataPrefix", "raw_output_data_prefix", &out->raw_output_data_prefix},
        std::tuple{"checkpointPrefix", "checkpoint_prefix", &out->checkpoint_prefix},
        std::tuple{"prevCheckpointPrefix", "prev_checkpoint_prefix", &out->prev_checkpoint_prefix}}) {
    Result<std::string> v = String(e, camel, snake, std::string("execution.") + camel);
    if (!v.ok()) return v.take_error();
    *target = *v;
  }
  if (const doc::Node* owner = Get(e, "ownerReference", "owner_reference")) {
    out->owner_reference = *owner;
  }
  const doc::Node* overrides = Get(e, "overrides");
  if (overrides == nullptr) return Ok();
  if (const doc::Node* resources = Get(*overrides, "resources")) {
    Result<doc::Node> r = Resources(resources, "execution.overrides.resources");
    if (!r.ok()) return r.take_error();
    out->override_resources = std::move(*r);
  }
  if (Result<std::string> v = String(*overrides, "containerImage", "container_image",
                                     "execution.overrides.containerImage");
      v.ok()) {
    out->container_image = *v;
  } else {
    return v.take_error();
  }
  if (const doc::Node* extended = Get(*overrides, "extendedResources", "extended_resources")) {
    out->extended_resources = *extended;
  }
  if (const doc::Node* pod = Get(*overrides, "podTemplate", "pod_template")) {
    if (const doc::Node* spec = Get(*pod, "podSpec", "pod_spec")) {
      Result<doc::Node> typed = ToGoForm(*spec, "PodSpec");
      if (!typed.ok()) return typed.take_error();
      out->has_pod_template_override = true;
      out->override_pod_spec = std::move(*typed);
    }
    Result<std::string> primary = String(*pod, "primaryContainerName", "primary_container_name",
                                         "execution.overrides.podTemplate.primaryContainerName");
    if (!primary.ok()) return primary.take_error();
    out->override_primary_container_name = *primary;
    if (const doc::Node* meta = Get(*pod, "metadata")) {
      if (Status st = StringMapOf(Get(*meta, "labels"), "execution.overrides.podTemplate.metadata.labels",
                                  &out->override_labels);
          !st.ok()) {
        return st;
      }
      if (Status st = StringMapOf(Get(*meta, "annotations"),
                                  "execution.overrides.podTemplate.metadata.annotations",
                                  &out->override_annotations);
          !st.ok()) {
        return st;
      }
    }
  }
  return Ok();
}

}  // namespace tjr::flyte
