#include "flyte/task.h"

#include <cctype>
#include <tuple>
#include <utility>

#include "flyte/secrets.h"
#include "flyte/task_fields.h"
#include "flyte/typed_value.h"
#include "typed/quantity.h"

namespace tjr::flyte {
namespace {

bool IsSidecarWithCustom(const doc::Node& object) {
  const doc::Node* type = Get(object, "type");
  return type != nullptr && type->is_string() && type->string_value() == "sidecar" &&
         Get(object, "custom") != nullptr;
}

// flyteidl's TaskTemplate.container is a Container message and k8s_pod a
// K8sPod message (flyteidl/core/tasks.proto), never a string: a Hydra or
// launcher config with `container: ${IMAGE}` (NeMo's conf/config.yaml) is no task.
bool IsMessage(const doc::Node* field) { return field != nullptr && field->is_mapping(); }

bool HasTarget(const doc::Node& object) {
  return IsMessage(Get(object, "container")) || IsMessage(Get(object, "k8sPod", "k8s_pod")) ||
         IsSidecarWithCustom(object);
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
    task.extended_resources = *extended;
  }
  if (const doc::Node* e = Get(document, "execution")) {
    if (Status st = ParseExecution(*e, &task.execution); !st.ok()) return st.take_error();
  } else {
    task.execution.override_resources = doc::Node::Mapping();
  }
  Result<std::vector<Secret>> secrets = ParseSecrets(*tmpl);
  if (!secrets.ok()) return secrets.take_error();
  task.secrets = std::move(*secrets);
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
    // name propeller would make (docs/manual.md "Flyte").
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
