#include "flyte/task.h"

#include <cctype>
#include <tuple>
#include <utility>

#include "flyte/typed_value.h"
#include "typed/quantity.h"

namespace tjr::flyte {
namespace {

// Protobuf JSON parsers accept the lowerCamelCase JSON name and the proto
// field name.
const doc::Node* Get(const doc::Node& object, std::string_view camel, std::string_view snake = {}) {
  if (!object.is_mapping()) return nullptr;
  if (const doc::Node* value = object.Find(camel); value != nullptr && !value->is_null()) {
    return value;
  }
  if (!snake.empty()) {
    if (const doc::Node* value = object.Find(snake); value != nullptr && !value->is_null()) {
      return value;
    }
  }
  return nullptr;
}

bool IsSidecarWithCustom(const doc::Node& object) {
  const doc::Node* type = Get(object, "type");
  return type != nullptr && type->is_string() && type->string_value() == "sidecar" &&
         Get(object, "custom") != nullptr;
}

bool HasTarget(const doc::Node& object) {
  return Get(object, "container") != nullptr || Get(object, "k8sPod", "k8s_pod") != nullptr ||
         IsSidecarWithCustom(object);
}

// encoding/json's case-insensitive field match (sidecarJob has no tags).
const doc::Node* GetFolded(const doc::Node& object, std::string_view name) {
  for (const doc::Field& field : object.fields()) {
    if (field.key.size() != name.size()) continue;
    bool equal = true;
    for (std::size_t i = 0; i < name.size() && equal; ++i) {
      equal = std::tolower(static_cast<unsigned char>(field.key[i])) ==
              std::tolower(static_cast<unsigned char>(name[i]));
    }
    if (equal && !field.value.is_null()) return &field.value;
  }
  return nullptr;
}

// Where the TaskTemplate sits in a recognized document.
const doc::Node* FindTemplate(const doc::Node& document) {
  if (HasTarget(document)) return &document;
  if (const doc::Node* t = Get(document, "template"); t != nullptr && HasTarget(*t)) return t;
  if (const doc::Node* spec = Get(document, "spec")) {
    if (const doc::Node* t = Get(*spec, "template"); t != nullptr && HasTarget(*t)) return t;
  }
  if (const doc::Node* closure = Get(document, "closure")) {
    if (const doc::Node* compiled = Get(*closure, "compiledTask", "compiled_task")) {
      if (const doc::Node* t = Get(*compiled, "template"); t != nullptr && HasTarget(*t)) return t;
    }
  }
  return nullptr;
}

Diagnostic Error(const doc::Node& at, std::string path, std::string message) {
  return MakeError(at.location(), std::move(path), std::move(message));
}

Result<std::string> String(const doc::Node& object, std::string_view camel, std::string_view snake,
                           const std::string& path) {
  const doc::Node* value = Get(object, camel, snake);
  if (value == nullptr) return std::string();
  if (!value->is_string()) return Error(*value, path, "must be a string");
  return value->string_value();
}

Status StringMapOf(const doc::Node* value, const std::string& path, StringMap* out) {
  if (value == nullptr) return Ok();
  if (!value->is_mapping()) return Error(*value, path, "must be a map of strings");
  for (const doc::Field& entry : value->fields()) {
    if (!entry.value.is_string()) return Error(entry.value, path + "." + entry.key, "must be a string");
    (*out)[entry.key] = entry.value.string_value();
  }
  return Ok();
}

// flyteidl Resources.ResourceName, by enum name or number.
std::string ResourceKey(const doc::Node& name, const std::string& gpu) {
  if (name.is_int()) {
    switch (name.int_value()) {
      case 1: return "cpu";
      case 2: return gpu;
      case 3: return "memory";
      case 5: return "ephemeral-storage";
      default: return "";
    }
  }
  if (!name.is_string()) return "";
  const std::string& n = name.string_value();
  if (n == "CPU") return "cpu";
  if (n == "GPU") return gpu;
  if (n == "MEMORY") return "memory";
  if (n == "EPHEMERAL_STORAGE") return "ephemeral-storage";
  return "";  // UNKNOWN and STORAGE are not mapped (ToK8sResourceList)
}

// ToK8sResourceList: quantities parsed, zero values left out.
Result<doc::Node> ResourceList(const doc::Node* entries, const std::string& path) {
  doc::Node out = doc::Node::Mapping();
  if (entries == nullptr) return out;
  if (!entries->is_sequence()) return Error(*entries, path, "must be a list of {name, value}");
  for (const doc::Node& entry : entries->items()) {
    const doc::Node* name = Get(entry, "name");
    const doc::Node* value = Get(entry, "value");
    std::string text = value != nullptr && value->is_string() ? value->string_value() : "";
    Result<typed::Quantity> q = typed::Quantity::Parse(text);
    if (!q.ok()) {
      return Error(value != nullptr ? *value : entry, path,
                   "Failed to parse resource as a valid quantity.: " + q.error().message);
    }
    std::string key = name != nullptr ? ResourceKey(*name, "nvidia.com/gpu") : "";
    if (key.empty() || q->is_zero()) continue;
    out.Set(key, doc::Node::String(text, value->location()));
  }
  return out;
}

// Resources in flyteidl's form (lists of {name, value}) or Kubernetes' form.
Result<doc::Node> Resources(const doc::Node* resources, const std::string& path) {
  doc::Node out = doc::Node::Mapping();
  if (resources == nullptr) return out;
  const doc::Node* requests = Get(*resources, "requests");
  const doc::Node* limits = Get(*resources, "limits");
  if ((requests != nullptr && requests->is_mapping()) || (limits != nullptr && limits->is_mapping())) {
    return ToGoForm(*resources, "ResourceRequirements");
  }
  Result<doc::Node> req = ResourceList(requests, path + ".requests");
  if (!req.ok()) return req.take_error();
  Result<doc::Node> lim = ResourceList(limits, path + ".limits");
  if (!lim.ok()) return lim.take_error();
  out.Set("limits", std::move(*lim));
  out.Set("requests", std::move(*req));
  return out;
}

Result<doc::Node> BuildContainer(const doc::Node& c) {
  doc::Node out = doc::Node::Mapping(c.location());
  Result<std::string> image = String(c, "image", "", "container.image");
  if (!image.ok()) return image.take_error();
  if (!image->empty()) out.Set("image", doc::Node::String(*image));
  for (const char* list : {"command", "args"}) {
    if (const doc::Node* items = Get(c, list)) out.Set(list, *items);
  }
  if (const doc::Node* env = Get(c, "env")) {
    if (!env->is_sequence()) return Error(*env, "container.env", "must be a list of {key, value}");
    doc::Node vars = doc::Node::Sequence(env->location());
    for (const doc::Node& kv : env->items()) {
      doc::Node var = doc::Node::Mapping(kv.location());
      const doc::Node* key = Get(kv, "key");
      const doc::Node* value = Get(kv, "value");
      var.Set("name", key != nullptr ? *key : doc::Node::String(""));
      if (value != nullptr) var.Set("value", *value);
      vars.push_back(std::move(var));
    }
    out.Set("env", std::move(vars));
  }
  Result<doc::Node> resources = Resources(Get(c, "resources"), "container.resources");
  if (!resources.ok()) return resources.take_error();
  out.Set("resources", std::move(*resources));
  Result<doc::Node> typed = ToGoForm(out, "Container");
  if (!typed.ok()) return typed.take_error();
  // json.Marshal drops the empty maps, but ToK8sResourceList made them:
  // they are non-nil in Go and MergeResources treats them so.
  return typed;
}

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

}  // namespace

bool IsFlyteTaskDocument(const doc::Node& document) {
  if (!document.is_mapping() || document.Find("apiVersion") != nullptr ||
      document.Find("kind") != nullptr) {
    return false;
  }
  return FindTemplate(document) != nullptr;
}

Result<Task> ParseTask(const doc::Node& document, const std::string& file,
                       const std::string& default_namespace) {
  const doc::Node* tmpl = FindTemplate(document);
  if (tmpl == nullptr) return Error(document, "", "not a Flyte task document");
  Task task;
  task.file = file;
  task.location = tmpl->location();
  const doc::Node* id = Get(*tmpl, "id");
  if (id == nullptr) id = Get(document, "id");
  if (id != nullptr) {
    Result<std::string> name = String(*id, "name", "", "id.name");
    if (!name.ok()) return name.take_error();
    task.name = *name;
    task.task_project = String(*id, "project", "", "").ok() ? *String(*id, "project", "", "") : "";
    task.task_domain = String(*id, "domain", "", "").ok() ? *String(*id, "domain", "", "") : "";
    task.task_version = String(*id, "version", "", "").ok() ? *String(*id, "version", "", "") : "";
  }
  if (task.name.empty()) {
    return AsInputError(Error(*tmpl, "id.name", "required: a Flyte task needs id.name"));
  }
  Result<std::string> type = String(*tmpl, "type", "", "type");
  if (!type.ok()) return type.take_error();
  task.type = *type;
  if (const doc::Node* v = Get(*tmpl, "taskTypeVersion", "task_type_version"); v != nullptr && v->is_int()) {
    task.task_type_version = v->int_value();
  }
  if (Status st = StringMapOf(Get(*tmpl, "config"), "config", &task.config); !st.ok()) {
    return st.take_error();
  }
  if (const doc::Node* metadata = Get(*tmpl, "metadata")) {
    Result<std::string> name = String(*metadata, "podTemplateName", "pod_template_name",
                                      "metadata.podTemplateName");
    if (!name.ok()) return name.take_error();
    task.pod_template_name = *name;
    if (const doc::Node* k8s = Get(*metadata, "metadata")) {
      if (Status st = StringMapOf(Get(*k8s, "labels"), "metadata.metadata.labels", &task.metadata_labels);
          !st.ok()) {
        return st.take_error();
      }
      if (Status st = StringMapOf(Get(*k8s, "annotations"), "metadata.metadata.annotations",
                                  &task.metadata_annotations);
          !st.ok()) {
        return st.take_error();
      }
    }
  }
  const doc::Node* custom = Get(*tmpl, "custom");
  if (task.type == "sidecar" && custom != nullptr &&
      (task.task_type_version == 0 || task.task_type_version == 1)) {
    task.custom_sidecar_version = static_cast<int>(task.task_type_version);
    const doc::Node* spec = task.task_type_version == 0 ? GetFolded(*custom, "podSpec") : custom;
    if (spec != nullptr) {
      Result<doc::Node> typed = ToGoForm(*spec, "PodSpec");
      if (!typed.ok()) return typed.take_error();
      task.custom_pod_spec = std::move(*typed);
    }
    if (task.task_type_version == 0) {
      if (const doc::Node* primary = GetFolded(*custom, "primaryContainerName"); primary != nullptr && primary->is_string()) {
        task.custom_primary_container_name = primary->string_value();
      }
      if (Status st = StringMapOf(GetFolded(*custom, "annotations"), "custom.annotations", &task.pod_annotations); !st.ok()) {
        return st.take_error();
      }
      if (Status st = StringMapOf(GetFolded(*custom, "labels"), "custom.labels", &task.pod_labels); !st.ok()) {
        return st.take_error();
      }
    } else if (const doc::Node* pod = Get(*tmpl, "k8sPod", "k8s_pod")) {
      if (const doc::Node* meta = Get(*pod, "metadata")) {
        if (Status st = StringMapOf(Get(*meta, "labels"), "k8sPod.metadata.labels", &task.pod_labels); !st.ok()) {
          return st.take_error();
        }
        if (Status st = StringMapOf(Get(*meta, "annotations"), "k8sPod.metadata.annotations", &task.pod_annotations);
            !st.ok()) {
          return st.take_error();
        }
      }
    }
  } else if (const doc::Node* container = Get(*tmpl, "container")) {
    if (const doc::Node* data = Get(*container, "dataConfig", "data_config")) {
      if (const doc::Node* on = Get(*data, "enabled"); on != nullptr && on->is_bool() && on->bool_value()) {
        return Error(*data, "container.dataConfig",
                     "co-pilot data loading (raw-container tasks) is not emulated by tjrender");
      }
    }
    Result<doc::Node> built = BuildContainer(*container);
    if (!built.ok()) return built.take_error();
    task.has_container = true;
    task.container = std::move(*built);
  } else if (const doc::Node* pod = Get(*tmpl, "k8sPod", "k8s_pod")) {
    task.has_k8s_pod = true;
    if (const doc::Node* spec = Get(*pod, "podSpec", "pod_spec")) {
      Result<doc::Node> typed = ToGoForm(*spec, "PodSpec");
      if (!typed.ok()) return typed.take_error();
      task.pod_spec = std::move(*typed);
    }
    if (const doc::Node* meta = Get(*pod, "metadata")) {
      if (Status st = StringMapOf(Get(*meta, "labels"), "k8sPod.metadata.labels", &task.pod_labels);
          !st.ok()) {
        return st.take_error();
      }
      if (Status st = StringMapOf(Get(*meta, "annotations"), "k8sPod.metadata.annotations",
                                  &task.pod_annotations);
          !st.ok()) {
        return st.take_error();
      }
    }
    if (const doc::Node* data = Get(*pod, "dataConfig", "data_config")) {
      if (const doc::Node* on = Get(*data, "enabled"); on != nullptr && on->is_bool() && on->bool_value()) {
        return Error(*data, "k8sPod.dataConfig", "co-pilot data loading is not emulated by tjrender");
      }
    }
  }
  if (const doc::Node* extended = Get(*tmpl, "extendedResources", "extended_resources")) {
    if (Get(*extended, "gpuAccelerator", "gpu_accelerator") != nullptr ||
        Get(*extended, "sharedMemory", "shared_memory") != nullptr) {
      return Error(*extended, "extendedResources",
                   "GPU accelerator and shared-memory extended resources are not emulated by tjrender");
    }
  }
  if (const doc::Node* e = Get(document, "execution")) {
    if (Status st = ParseExecution(*e, &task.execution); !st.ok()) return st.take_error();
  } else {
    task.execution.override_resources = doc::Node::Mapping();
  }
  Result<std::string> ns = String(document, "namespace", "", "namespace");
  if (!ns.ok()) return ns.take_error();
  task.namespace_ = *ns;
  if (task.namespace_.empty()) {
    if (const doc::Node* e = Get(document, "execution")) {
      if (Result<std::string> v = String(*e, "namespace", "", "execution.namespace"); v.ok()) {
        task.namespace_ = *v;
      }
    }
  }
  if (task.namespace_.empty()) task.namespace_ = default_namespace;
  if (task.execution.generated_name.empty()) {
    // A DNS-1123 label made from the task name stands in for the generated
    // name propeller would make (README "Flyte").
    std::string name;
    for (char c : task.name) {
      char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9');
      name += ok ? l : '-';
    }
    while (!name.empty() && name.front() == '-') name.erase(name.begin());
    if (name.size() > 63) name.resize(63);
    while (!name.empty() && name.back() == '-') name.pop_back();
    task.execution.generated_name = name.empty() ? "task" : name;
  }
  return task;
}

}  // namespace tjr::flyte
