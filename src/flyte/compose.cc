#include "flyte/compose.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>
#include <vector>

#include "base/object_name.h"
#include "flyte/mergo.h"
#include "flyte/base_spec.h"
#include "flyte/extended_resources.h"
#include "flyte/node_util.h"
#include "flyte/resources.h"
#include "flyte/typed_value.h"
#include "flyte/secrets.h"
#include "flyte/warnings.h"
#include "flyte/release.h"
#include "flyte/trace.h"
#include "typed/round_trip.h"

namespace tjr::flyte {
namespace {

constexpr char kDefault[] = "default";
constexpr char kPrimary[] = "primary";
constexpr char kDefaultInit[] = "default-init";
constexpr char kPrimaryInit[] = "primary-init";
constexpr char kPrimaryKey[] = "primary_container_name";


// MergeBasePodSpecOntoTemplate's container loop for one list.
doc::Node MergeContainers(const std::vector<doc::Node>& templates, const std::vector<doc::Node>& base,
                          const std::string& primary, const char* default_name,
                          const char* primary_name, Version version) {
  const Release& release = ReleaseOf(version);
  const schema::Type& container_type = *CoreType("Container");
  const doc::Node* default_template = nullptr;
  const doc::Node* primary_template = nullptr;
  for (const doc::Node& t : templates) {
    // The last of several same-named magic containers wins.
    if (NameOf(t) == default_name) {
      default_template = &t;
    } else if (NameOf(t) == primary_name) {
      primary_template = &t;
    }
  }
  doc::Node merged = doc::Node::Sequence();
  for (const doc::Node& c : base) {
    const std::string name = NameOf(c);
    std::optional<doc::Node> m;
    if (default_template != nullptr) m = *default_template;
    if (name == primary && primary_template != nullptr) {
      if (!m) {
        m = *primary_template;
      } else {
        MergoMerge(&*m, *primary_template, container_type);
      }
    }
    for (const doc::Node& t : templates) {
      const std::string template_name = NameOf(t);
      if (template_name != name) continue;
      // default_name and primary_name are reserved templates; v1.16.3+
      // also skips the one named like the primary container.
      const std::string& reserved_primary = release.primary_named_template_ignored ? primary : primary_name;
      if (template_name == default_name || template_name == reserved_primary) continue;
      if (!m) {
        m = t;
      } else {
        MergoMerge(&*m, t, container_type);
      }
    }
    if (!m) {
      m = c;
    } else {
      MergoMerge(&*m, c, container_type);
    }
    merged.push_back(std::move(*m));
  }
  return merged;
}
Diagnostic Error(const Task& task, std::string message) {
  return MakeError(task.location, "", std::move(message));
}

std::string GoMapText(const StringMap& map) {
  std::string out = "map[";
  bool first = true;
  for (const auto& [k, v] : map) {
    out += (first ? "" : " ") + k + ":" + v;
    first = false;
  }
  return out + "]";
}

}  // namespace

TemplateMerge MergeOntoTemplate(const StoredTemplate& found, const doc::Node& spec, const std::string& primary,
                                const StringMap& labels, const StringMap& annotations, Version version) {
  TemplateMerge out;
  out.spec = found.spec;
  MergoMerge(&out.spec, spec, *CoreType("PodSpec"));
  out.spec.Set("containers", MergeContainers(Items(found.spec, "containers"), Items(spec, "containers"), primary,
                                             kDefault, kPrimary, version));
  out.spec.Erase("initContainers");
  std::vector<doc::Node> base_init = Items(spec, "initContainers");
  if (!base_init.empty()) {
    out.spec.Set("initContainers", MergeContainers(Items(found.spec, "initContainers"), base_init, "",
                                                   kDefaultInit, kPrimaryInit, version));
  }
  doc::Node base_meta = doc::Node::Mapping();
  base_meta.Set("labels", MapNode(labels));
  base_meta.Set("annotations", MapNode(annotations));
  out.metadata = found.metadata.is_mapping() ? found.metadata : doc::Node::Mapping();
  MergoMerge(&out.metadata, base_meta, *CoreType("ObjectMeta"));
  return out;
}

Result<doc::Node> ComposePod(const Task& task, const PluginConfig& config, const TemplateStore& store,
                             Version version, Diagnostics* warnings, ComposeTrace* trace) {
  const Release& release = ReleaseOf(version);
  if (!IsDns1123Subdomain(task.execution.generated_name)) {
    return Error(task, "execution.generatedName \"" + task.execution.generated_name +
                           "\" is not a DNS-1123 subdomain: flytepropeller would rewrite the Pod "
                           "name (ConvertToDNS1123SubdomainCompatibleString), which tjrender does "
                           "not emulate");
  }
  // Task types other plugins own build CRDs, not a plain Pod.
  for (const char* other : {"spark", "ray", "pytorch", "tensorflow", "mpi", "dask"}) {
    if (task.type == other) {
      return Error(task, "task type \"" + task.type +
                             "\" is handled by Flyte's " + other +
                             " plugin, not the pod plugin; tjrender renders pod-plugin tasks only");
    }
  }
  // A: the base pod spec and ObjectMeta (BuildRawPod).
  doc::Node spec = doc::Node::Mapping();
  std::string primary;
  StringMap labels;
  StringMap annotations;
  if (task.custom_sidecar_version >= 0) {
    // The pod plugin's own sidecar paths (plugin.go:61-101): no BuildRawPod,
    // so no node-level pod template override.
    if (task.custom_pod_spec.is_null()) {
      return Error(task, task.custom_sidecar_version == 0
                             ? "invalid TaskSpecification, nil PodSpec"
                             : "Unable to unmarshal task custom: no pod spec");
    }
    spec = task.custom_pod_spec;
    if (task.custom_sidecar_version == 0) {
      primary = task.custom_primary_container_name;
    } else {
      if (task.config.empty()) {
        return Error(task, "invalid TaskSpecification, config needs to be non-empty and include "
                           "missing [primary_container_name] key");
      }
      auto it = task.config.find(kPrimaryKey);
      if (it == task.config.end()) {
        return Error(task, "invalid TaskSpecification, config missing [primary_container_name] key in [" +
                               GoMapText(task.config) + "]");
      }
      primary = it->second;
    }
    labels = task.pod_labels;
    annotations = task.pod_annotations;
  } else if (task.has_container) {
    if (!IsDns1123Label(task.execution.generated_name)) {
      return Error(task, "execution.generatedName \"" + task.execution.generated_name +
                             "\" is not a DNS-1123 label: Flyte would name the container with 4 "
                             "random characters, which tjrender cannot reproduce");
    }
    doc::Node c = task.container;
    c.Set("name", doc::Node::String(task.execution.generated_name));
    c.Set("terminationMessagePolicy", doc::Node::String("FallbackToLogsOnError"));
    if (!config.image_pull_policy.empty()) {
      c.Set("imagePullPolicy", doc::Node::String(config.image_pull_policy));
    }
    primary = task.execution.generated_name;
    spec.Set("containers", Sequence({c}));
  } else if (task.has_k8s_pod) {
    if (task.pod_spec.is_null()) {
      return Error(task, "Pod tasks with task type version > 1 should specify their target as a "
                         "K8sPod with a defined pod spec");
    }
    spec = task.pod_spec;
    auto it = task.config.find(kPrimaryKey);
    if (it == task.config.end()) {
      return Error(task, "invalid TaskSpecification, config missing [primary_container_name] key in [" +
                             GoMapText(task.config) + "]");
    }
    primary = it->second;
    labels = task.pod_labels;
    annotations = task.pod_annotations;
  } else {
    return Error(task, "invalid TaskSpecification, unable to determine Pod configuration");
  }
  if (task.execution.has_pod_template_override && task.custom_sidecar_version < 0) {
    for (const auto& [k, v] : task.execution.override_annotations) annotations[k] = v;
    for (const auto& [k, v] : task.execution.override_labels) labels[k] = v;
    spec = task.execution.override_pod_spec;
    primary = task.execution.override_primary_container_name;
  }

  if (trace != nullptr) trace->after_base = {spec, labels, annotations};

  // B: the runtime template (getBasePodTemplate + LoadOrDefault).
  const std::string& template_name =
      task.pod_template_name.empty() ? config.default_pod_template_name : task.pod_template_name;
  const StoredTemplate* found = nullptr;
  if (auto by_name = store.find(template_name); by_name != store.end()) {
    for (const std::string& ns : {task.namespace_, config.propeller_namespace}) {
      if (auto it = by_name->second.find(ns); it != by_name->second.end()) {
        found = &it->second;
        if (trace != nullptr) trace->template_namespace = ns;
        break;
      }
    }
  }
  if (trace != nullptr && found != nullptr) {
    trace->role = task.pod_template_name.empty() ? TemplateRole::kDefault : TemplateRole::kTaskNamed;
    trace->template_name = template_name;
    trace->template_used = *found;
  }
  if (found == nullptr && !task.pod_template_name.empty()) {
    return Error(task, "PodTemplate '" + task.pod_template_name + "' does not exist");
  }
  // The default template is optional, so propeller says nothing when it is
  // not found; one among the inputs in a third namespace is most likely
  // meant to apply. PodTemplateStore.LoadOrDefault (flyteplugins v1.16.8
  // pluginmachinery/flytek8s/pod_template_store.go:45-58) looks in the
  // task's namespace, then in its default namespace, which propeller sets
  // to its own (POD_NAMESPACE, else "flyte": flytepropeller
  // pkg/controller/controller.go:396-401).
  if (found == nullptr && task.pod_template_name.empty() && !template_name.empty()) {
    if (auto by_name = store.find(template_name); by_name != store.end() && !by_name->second.empty()) {
      std::string elsewhere;
      for (const auto& [ns, stored] : by_name->second) {
        elsewhere += (elsewhere.empty() ? "" : ", ") + ("\"" + ns + "\" (" + stored.location.ToString() + ")");
      }
      warnings->push_back(MakeNote(
          task.location, kRuleTemplateOtherNamespace,
          "PodTemplate \"" + template_name + "\" (default-pod-template-name) is not applied to this task: it is "
              "in namespace " + elsewhere + ", and propeller looks only in the task's namespace \"" +
              task.namespace_ + "\" and in its own, \"" + config.propeller_namespace +
              "\" (the namespace of the ConfigMap its configuration came from, else \"flyte\"); put a copy in "
              "one of those"));
    }
  }

  // C: per-container customization (resources and env).
  ResourceInputs inputs;
  inputs.config = &config;
  inputs.override_resources = &task.execution.override_resources;
  inputs.platform_resources =
      task.execution.platform_resources.is_null() ? nullptr : &task.execution.platform_resources;
  const TemplateValues placeholders = PlaceholderValues(task);
  std::vector<doc::Node> init = Items(spec, "initContainers");
  for (doc::Node& c : init) {
    RenderCommand(&c, placeholders);
    doc::Node template_resources;
    if (found != nullptr && release.template_container_resources) {
      template_resources = TemplateResources(found->spec, NameOf(c), true);
    }
    inputs.template_resources = template_resources.is_null() ? nullptr : &template_resources;
    ResourceMode mode =
        release.merge_init_container_resources ? ResourceMode::kMergeExisting : ResourceMode::kEnsureInRange;
    if (Status s = CustomizeResources(&c, mode, inputs); !s.ok()) return s.take_error();
    DecorateEnv(&c, task, config, release.literal_offloading_env);
  }
  if (!init.empty()) spec.Set("initContainers", Sequence(init));
  std::vector<doc::Node> containers = Items(spec, "containers");
  std::vector<doc::Node> resource_requests;
  bool primary_found = false;
  for (doc::Node& c : containers) {
    RenderCommand(&c, placeholders);
    const bool is_primary = NameOf(c) == primary;
    doc::Node template_resources;
    if (found != nullptr && release.template_container_resources) {
      template_resources = TemplateResources(found->spec, NameOf(c), false);
    }
    inputs.template_resources = template_resources.is_null() ? nullptr : &template_resources;
    if (Status s = CustomizeResources(
            &c, is_primary ? ResourceMode::kMergeExisting : ResourceMode::kEnsureInRange, inputs);
        !s.ok()) {
      return s.take_error();
    }
    DecorateEnv(&c, task, config, release.literal_offloading_env);
    resource_requests.push_back(*c.Find("resources"));
    primary_found = primary_found || is_primary;
  }
  if (!primary_found) {
    return Error(task, "invalid TaskSpecification, primary container [" + primary + "] not defined");
  }

  // E: plugin configuration into the base spec, then the primary's default
  // security context.
  UpdatePod(&spec, task, config, resource_requests, version);
  if (!config.default_security_context.is_null()) {
    for (doc::Node& c : containers) {
      if (NameOf(c) == primary && IsNil(c.Find("securityContext"))) {
        c.Set("securityContext", config.default_security_context);
      }
    }
  }
  spec.Set("containers", Sequence(containers));
  if (trace != nullptr) {
    trace->primary = primary;
    trace->customized = {spec, labels, annotations};
  }

  // G: merge onto the runtime template.
  doc::Node metadata = doc::Node::Mapping();
  if (found != nullptr) {
    CheckTemplate(*found, spec, primary, version, warnings);
    TemplateMerge merged = MergeOntoTemplate(*found, spec, primary, labels, annotations, version);
    spec = std::move(merged.spec);
    metadata = std::move(merged.metadata);
    labels = MapOf(metadata.Find("labels"));
    annotations = MapOf(metadata.Find("annotations"));
  }

  // H: GPU accelerator and shared memory, then the container image override.
  Result<ExtendedResources> extended = ReadExtendedResources(
      task.extended_resources.is_null() ? nullptr : &task.extended_resources,
      task.execution.extended_resources.is_null() ? nullptr : &task.execution.extended_resources);
  if (!extended.ok()) return extended.take_error();
  if (Status s = ApplyExtendedResources(*extended, config, primary, &spec,
                                        release.dedupe_node_selector_requirements);
      !s.ok()) {
    Diagnostic error = s.take_error();
    error.location = task.location;
    return error;
  }

  if (!task.execution.container_image.empty()) {
    std::vector<doc::Node> cs = Items(spec, "containers");
    for (doc::Node& c : cs) {
      if (NameOf(c) == primary) {
        c.Set("image", doc::Node::String(task.execution.container_image));
        break;
      }
    }
    spec.Set("containers", Sequence(cs));
  }

  if (trace != nullptr) {
    trace->extended_spec = spec;
    trace->merged_metadata = metadata;
    if (found == nullptr) {  // the maps are all there is
      trace->merged_metadata.Set("labels", MapNode(labels));
      trace->merged_metadata.Set("annotations", MapNode(annotations));
    }
  }

  // I: the pod plugin.
  const bool raw_container = task.type == "raw-container";
  if (task.type == "sidecar" || (Items(spec, "containers").size() == 1 && !raw_container)) {
    annotations[kPrimaryKey] = primary;
  }

  // J: addObjectMetadata.
  static const StringMap kBuiltinAnnotations = {
      {"cluster-autoscaler.kubernetes.io/safe-to-evict", "false"}};
  const StringMap& default_annotations =
      config.default_annotations ? *config.default_annotations : kBuiltinAnnotations;
  static const StringMap kNone;
  const bool template_layer = release.task_metadata_layer;
  // Flyte 2's executor marshals secrets alike but sets no execution-identity
  // label (executor/pkg/plugin/task_exec_metadata.go:93-117 at 6fadb90d).
  Result<TaskExecutionMetadata> execution = WrapTaskExecutionMetadata(task, release.execution_identity_label);
  if (!execution.ok()) return execution.take_error();
  StringMap final_annotations =
      Union({&default_annotations, &annotations, template_layer ? &task.metadata_annotations : &kNone,
             &execution->annotations});
  StringMap final_labels = Union({&config.default_labels, &labels,
                                  template_layer ? &task.metadata_labels : &kNone,
                                  &execution->labels});
  metadata.Set("name", doc::Node::String(task.execution.generated_name));
  metadata.Set("namespace", doc::Node::String(task.namespace_));
  metadata.Set("labels", MapNode(final_labels));
  metadata.Set("annotations", MapNode(final_annotations));
  metadata.Erase("ownerReferences");
  if (!task.execution.owner_reference.is_null()) {
    metadata.Set("ownerReferences", Sequence({task.execution.owner_reference}));
  }
  if (config.inject_finalizer) {
    std::vector<doc::Node> finalizers = Items(metadata, "finalizers");
    doc::Node finalizer = doc::Node::String("flyte/flytek8s");
    if (std::find(finalizers.begin(), finalizers.end(), finalizer) == finalizers.end()) {
      finalizers.push_back(finalizer);
    }
    metadata.Set("finalizers", Sequence(finalizers));
  }

  doc::Node pod = doc::Node::Mapping(task.location);
  pod.Set("apiVersion", doc::Node::String("v1"));
  pod.Set("kind", doc::Node::String("Pod"));
  pod.Set("metadata", metadata);
  pod.Set("spec", spec);
  Result<doc::Node> typed = typed::TypedRoundTrip(pod, *CoreType("Pod"));
  if (!typed.ok()) return typed.take_error();
  typed->Erase("status");
  CheckDuplicateEnv(*typed, task, warnings);
  CheckUnknownInputs(task, warnings);
  return typed;
}

}  // namespace tjr::flyte
