#include "explain/flyte_explain.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "explain/chains.h"
#include "explain/paths.h"
#include "flyte/node_util.h"
#include "flyte/release.h"
#include "flyte/secrets.h"
#include "typed/quantity.h"

namespace tjr::explain {
namespace {

using flyte::StringMap;
using flyte::TaskTrace;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The steps of ComposePod the stages stand for, each a whole Pod as it
// would come out if the pipeline stopped there (the base merged onto the
// template), so a value keeps its path from stage to stage.
enum class StageKind {
  kTemplate,         // the PodTemplate as written
  kTemplateApplied,  // its containers applied to the task's (default/primary roles, drops)
  kTaskWritten,      // the task as written
  kFlyteAdmin,       // the task after flyteadmin's launch (setCompiledTaskDefaults)
  kBasePod,          // step A: propeller's container, a node-level pod_template override
  kCustomized,       // steps C-G: resources, env, plugins.k8s, the merge
  kExtended,         // step H: GPU, shared memory, the container_image override
  kFinal,            // steps I-J and the typed round trip
};

// The layers, by role; kNone where the render had none.
struct Layers {
  std::size_t template_ = kNone, task = kNone, task_resources = kNone, overrides = kNone, plugin = kNone,
              propeller = kNone;
};

// The span of an input document in its file: every value of it lies
// between its first and last location.
struct Region {
  const std::string* file = nullptr;
  std::pair<std::uint32_t, std::uint32_t> first{~0u, ~0u}, last{0, 0};
  std::size_t layer = kNone;

  void Add(const Location& at) {
    if (!at.known()) return;
    if (file == nullptr) file = at.file;
    if (at.file != file) return;
    const std::pair<std::uint32_t, std::uint32_t> here{at.line, at.column};
    first = std::min(first, here);
    last = std::max(last, here);
  }
  void AddTree(const doc::Node& node) {
    Add(node.location());
    if (node.is_mapping()) {
      for (const doc::Field& field : node.fields()) {
        Add(field.key_location);
        AddTree(field.value);
      }
    } else if (node.is_sequence()) {
      for (const doc::Node& item : node.items()) AddTree(item);
    }
  }
  bool Holds(const Location& at) const {
    const std::pair<std::uint32_t, std::uint32_t> here{at.line, at.column};
    return file != nullptr && at.file == file && first <= here && here <= last;
  }
};

bool EqualFolded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The location of `key` (case-insensitively, as viper reads keys) inside
// the first mapping field named `section` anywhere in `root`, or unknown.
Location FindUnder(const doc::Node& root, std::string_view section, std::string_view key, bool in_section = false) {
  if (root.is_mapping()) {
    for (const doc::Field& field : root.fields()) {
      if (in_section && EqualFolded(field.key, key)) {
        return field.value.location().known() ? field.value.location() : field.key_location;
      }
      const bool enters = in_section || EqualFolded(field.key, section);
      if (Location at = FindUnder(field.value, section, key, enters); at.known()) return at;
    }
  } else if (root.is_sequence()) {
    for (const doc::Node& item : root.items()) {
      if (Location at = FindUnder(item, section, key, in_section); at.known()) return at;
    }
  }
  return {};
}

bool SameQuantity(const doc::Node& a, const doc::Node* b) {
  if (b == nullptr || !a.is_scalar() || !b->is_scalar()) return false;
  if (a.source_text() == b->source_text()) return true;
  Result<typed::Quantity> x = typed::Quantity::Parse(a.source_text());
  Result<typed::Quantity> y = typed::Quantity::Parse(b->source_text());
  return x.ok() && y.ok() && Compare(*x, *y) == 0;
}

const doc::Node* ResourceAt(const doc::Node& requirements, const std::string& side, const std::string& key) {
  const doc::Node* list = requirements.is_mapping() ? requirements.Find(side) : nullptr;
  return list != nullptr && list->is_mapping() ? list->Find(key) : nullptr;
}

doc::Node PodOf(doc::Node metadata, doc::Node spec) {
  doc::Node pod = doc::Node::Mapping();
  pod.Set("metadata", std::move(metadata));
  pod.Set("spec", std::move(spec));
  return pod;
}

doc::Node MetadataOf(const StringMap& labels, const StringMap& annotations) {
  doc::Node metadata = doc::Node::Mapping();
  metadata.Set("labels", flyte::MapNode(labels));
  metadata.Set("annotations", flyte::MapNode(annotations));
  return metadata;
}

// Step A's base pod spec before propeller touches it: the task's container
// (named as propeller names it, so its path is the Pod's) or its pod spec.
doc::Node WrittenSpec(const flyte::Task& task) {
  if (task.custom_sidecar_version >= 0) return task.custom_pod_spec;
  if (task.has_container) {
    doc::Node container = task.container;
    container.Set("name", doc::Node::String(task.execution.generated_name));
    doc::Node spec = doc::Node::Mapping();
    spec.Set("containers", flyte::Sequence({container}));
    return spec;
  }
  return task.pod_spec;
}

// The template's contribution to the task's containers alone: the base
// reduced to its containers' names.
doc::Node NamesOnly(const doc::Node& spec) {
  doc::Node out = doc::Node::Mapping();
  for (const char* list : {"containers", "initContainers"}) {
    std::vector<doc::Node> names;
    for (const doc::Node& c : flyte::Items(spec, list)) {
      doc::Node named = doc::Node::Mapping();
      if (const doc::Node* name = c.Find("name")) named.Set("name", *name);
      names.push_back(std::move(named));
    }
    if (!names.empty()) out.Set(list, flyte::Sequence(names));
  }
  return out;
}

// The item path of the `list` item that `path` lies in ("...env[name=X]"
// for "...env[name=X].value"), or "".
std::string ItemOf(const std::string& path, std::string_view list) {
  const std::string marker = "." + std::string(list) + "[";
  const std::size_t at = path.rfind(marker);
  if (at == std::string::npos) return "";
  const std::size_t close = path.find(']', at);
  return close == std::string::npos ? "" : path.substr(0, close + 1);
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// What the chains need to attribute one step.
class Attributor {
 public:
  Attributor(const TaskTrace& trace, const Layers& layers, std::vector<Region> regions,
             std::vector<StageKind> kinds, const std::vector<Stage>& stages)
      : trace_(trace), layers_(layers), regions_(std::move(regions)), kinds_(std::move(kinds)) {
    for (const Stage& stage : stages) {
      std::unordered_map<std::string, doc::Node> at;
      WalkFields(stage.object, [&](const std::string& path, const doc::Node& node, const std::string*, std::size_t) {
        at.emplace(path, node);
      });
      nodes_.push_back(std::move(at));
    }
    if (trace.compose.role != flyte::TemplateRole::kNone) {
      template_name_ = "PodTemplate " + trace.compose.template_namespace + "/" + trace.compose.template_name;
    }
    Result<flyte::TaskExecutionMetadata> execution = flyte::WrapTaskExecutionMetadata(
        trace.task, flyte::ReleaseOf(trace.version).execution_identity_label);
    if (execution.ok()) execution_ = std::move(*execution);
  }

  bool operator()(const Stage& stage, const std::string& path, const doc::Node& value, Step* step) {
    const std::size_t index = static_cast<std::size_t>(&stage - stage_base_);
    const StageKind kind = kinds_[index];
    if (step->action == Action::kDeleted) {
      step->detail = DeletionReason(kind, path);
      return true;
    }
    if (path.empty() || path == "apiVersion" || path == "kind") {
      Set(step, layers_.propeller, "the Pod flytepropeller creates for the task");
      return true;
    }
    // A mapping the merge makes empty before any layer fills it.
    if (value.is_mapping() && value.empty() && !step->location.known() && kind < StageKind::kCustomized) {
      return false;
    }
    if (kind != StageKind::kTemplate && (ItemOf(path, "containers") == path || ItemOf(path, "initContainers") == path)) {
      const bool replaced = trace_.task.execution.has_pod_template_override;
      if (Classify(step->location) != (replaced ? layers_.overrides : layers_.task)) step->location = {};
      Set(step, replaced ? layers_.overrides : layers_.task,
          std::string(replaced ? "a container of the execution's pod_template override"
                               : "a container of the task") +
              " (template containers only merge into the task's)");
      return true;
    }
    if (std::size_t layer = Classify(step->location); layer != kNone) {
      step->layer = layer;
      step->detail = FromInput(layer);
      return true;
    }
    Infer(kind, index, path, value, step);
    return true;
  }

  void set_stage_base(const Stage* base) { stage_base_ = base; }

 private:
  std::size_t Classify(const Location& at) const {
    if (!at.known()) return kNone;
    for (const Region& region : regions_) {
      if (region.layer != kNone && region.Holds(at)) return region.layer;
    }
    // Configuration carried in a ConfigMap's data is parsed from a string:
    // its file is still the ConfigMap's.
    if (!trace_.task_resources_file.empty() && *at.file == trace_.task_resources_file &&
        trace_.task_resources_file != trace_.config_file && layers_.task_resources != kNone) {
      return layers_.task_resources;
    }
    if (!trace_.config_file.empty() && *at.file == trace_.config_file && layers_.plugin != kNone) {
      return layers_.plugin;
    }
    return kNone;
  }

  std::string FromInput(std::size_t layer) const {
    if (layer == layers_.template_) return "from " + template_name_;
    if (layer == layers_.task) return "from the task";
    if (layer == layers_.overrides) return "from the execution";
    if (layer == layers_.plugin) return "from propeller's plugins.k8s";
    if (layer == layers_.task_resources) return "from flyteadmin's task_resources";
    return "";
  }

  std::string DeletionReason(StageKind kind, const std::string& path) const {
    switch (kind) {
      case StageKind::kTemplateApplied:
        if (path == "spec.initContainers") return "the task has no init containers: the template's are dropped";
        if (EndsWith(path, "[name=default]") || EndsWith(path, "[name=primary]") ||
            EndsWith(path, "[name=default-init]") || EndsWith(path, "[name=primary-init]")) {
          return "a role, not a container: merged into the task's containers";
        }
        return "matches no container of the task: Flyte drops it";
      case StageKind::kBasePod:
        return trace_.task.execution.has_pod_template_override
                   ? "the execution's pod_template override replaces the task's pod spec"
                   : "replaced by flytepropeller's base pod (BuildRawPod)";
      case StageKind::kFinal: return "not in the Pod flytepropeller creates (addObjectMetadata, typed round trip)";
      default: return "removed";
    }
  }

  void Set(Step* step, std::size_t layer, std::string detail, Location at = {}) const {
    step->layer = layer;
    step->detail = std::move(detail);
    if (at.known() && !step->location.known()) step->location = at;
  }

  const doc::Node* NodeAt(std::size_t stage, const std::string& path) const {
    auto it = nodes_[stage].find(path);
    return it == nodes_[stage].end() ? nullptr : &it->second;
  }

  Location InTask(std::initializer_list<std::string_view> keys) const {
    const doc::Node* node = &trace_.task_document;
    for (std::string_view key : keys) {
      node = node->is_mapping() ? node->Find(key) : nullptr;
      if (node == nullptr) return {};
    }
    return node->location();
  }

  void Infer(StageKind kind, std::size_t stage, const std::string& path, const doc::Node& value, Step* step) {
    const flyte::Task& task = trace_.task;
    const flyte::PluginConfig& config = trace_.config;
    if (path == "metadata.name") {
      return Set(step, layers_.propeller, "the task execution's generated name",
                 InTask({"execution", "generatedName"}));
    }
    if (path == "metadata.namespace") return Set(step, layers_.propeller, "the task's namespace");
    if (path == "metadata.labels" || path == "metadata.annotations") {
      return Set(step, layers_.propeller, "addObjectMetadata: the union of the default, pod, task and execution maps");
    }
    if (StartsWith(path, "metadata.labels") || StartsWith(path, "metadata.annotations")) {
      if (InferMetadata(path, value, step)) return;
    }
    if (StartsWith(path, "metadata.ownerReferences")) {
      return Set(step, layers_.overrides, "the node's owner reference", InTask({"execution", "ownerReference"}));
    }
    if (StartsWith(path, "metadata.finalizers")) {
      return Set(step, layers_.plugin, "inject-finalizer", FindUnder(trace_.config_document, "k8s", "inject-finalizer"));
    }
    if (const std::string item = ItemOf(path, "env"); !item.empty()) return InferEnv(stage, item, step);
    if (!ItemOf(path, "envFrom").empty()) {
      return Set(step, layers_.plugin, "default-env-from-secrets / default-env-from-configmaps");
    }
    if (const std::size_t at = path.find(".resources."); at != std::string::npos &&
                                                           (!ItemOf(path, "containers").empty() ||
                                                            !ItemOf(path, "initContainers").empty())) {
      return InferResource(kind, path.substr(at + 11), value, step);
    }
    const bool in_container = !ItemOf(path, "containers").empty() || !ItemOf(path, "initContainers").empty();
    if (in_container) {
      if (EndsWith(path, "].name")) {
        return Set(step, layers_.propeller, "primary container name: the task execution's generated name");
      }
      if (EndsWith(path, ".terminationMessagePolicy")) {
        return Set(step, layers_.propeller, "terminationMessagePolicy set by the pod plugin");
      }
      if (EndsWith(path, ".imagePullPolicy")) {
        return Set(step, layers_.plugin, "image-pull-policy",
                   FindUnder(trace_.config_document, "k8s", "image-pull-policy"));
      }
      if (EndsWith(path, ".image") && value.is_string() && kind >= StageKind::kExtended &&
          value.string_value() == task.execution.container_image) {
        return Set(step, layers_.overrides, "the execution's container_image override (primary container only)",
                   InTask({"execution", "overrides", "containerImage"}));
      }
      if (EndsWith(path, ".securityContext") && !config.default_security_context.is_null()) {
        return Set(step, layers_.plugin, "default-security-context (primary container)");
      }
      if (EndsWith(path, ".image") && kind == StageKind::kTaskWritten && task.has_container) {
        return Set(step, layers_.task, "the task container's image", FindUnder(trace_.task_document, "container", "image"));
      }
      if (kind == StageKind::kCustomized && (EndsWith(path, ".command") || EndsWith(path, ".args"))) {
        return Set(step, layers_.propeller, "{{...}} placeholders rendered");
      }
    }
    switch (kind) {
      case StageKind::kTemplate:
      case StageKind::kTemplateApplied: return Set(step, layers_.template_, "from " + template_name_);
      case StageKind::kTaskWritten: return Set(step, layers_.task, "from the task");
      case StageKind::kFlyteAdmin:
        return Set(step, layers_.task_resources, "flyteadmin's launch (setCompiledTaskDefaults)");
      case StageKind::kBasePod:
        if (task.execution.has_pod_template_override) {
          return Set(step, layers_.overrides, "the execution's pod_template override");
        }
        return Set(step, layers_.propeller, "flytepropeller's base pod (BuildRawPod)");
      case StageKind::kCustomized: return InferPodSpec(path, step);
      case StageKind::kExtended:
        return Set(step, layers_.propeller, "GPU accelerator, shared memory (step H, from the extended resources)");
      case StageKind::kFinal: return Set(step, layers_.propeller, "the typed round trip (the Go Pod marshalled)");
    }
  }

  // Step E: UpdatePod writes plugins.k8s into the base pod spec.
  void InferPodSpec(const std::string& path, Step* step) const {
    const flyte::PluginConfig& config = trace_.config;
    if (path == "spec.restartPolicy") return Set(step, layers_.propeller, "restartPolicy Never when the task sets none");
    if (path == "spec.affinity" && config.default_affinity.is_null()) {
      return Set(step, layers_.propeller, "affinity is always set (UpdatePod)");
    }
    if (path == "spec.serviceAccountName") {
      return Set(step, layers_.overrides, "the execution's service account", InTask({"execution", "serviceAccount"}));
    }
    if (StartsWith(path, "spec.containers") || StartsWith(path, "spec.initContainers")) {
      return Set(step, layers_.propeller, "flytepropeller's container customization");
    }
    const std::size_t dot = path.find_first_of(".[", 5);
    const std::string field = path.substr(5, dot == std::string::npos ? std::string::npos : dot - 5);
    return Set(step, layers_.plugin, "plugins.k8s, written by UpdatePod (spec." + field + ")");
  }

  void InferEnv(std::size_t stage, const std::string& item_path, Step* step) const {
    const doc::Node* item = NodeAt(stage, item_path);
    const std::string name = item != nullptr ? flyte::NameOf(*item) : "";
    const flyte::PluginConfig& config = trace_.config;
    if (config.default_env_vars.count(name) != 0) {
      return Set(step, layers_.plugin, "default-env-vars", FindUnder(trace_.config_document, "default-env-vars", name));
    }
    if (config.default_env_vars_from_env.count(name) != 0) {
      return Set(step, layers_.plugin, "default-env-vars-from-env (propeller's own environment, empty here)",
                 FindUnder(trace_.config_document, "default-env-vars-from-env", name));
    }
    if (trace_.task.execution.environment.count(name) != 0) {
      return Set(step, layers_.overrides, "the execution's environment", FindUnder(trace_.task_document, "execution", name));
    }
    if (StartsWith(name, "FLYTE_") || StartsWith(name, "_F_L_")) {
      return Set(step, layers_.propeller, "Flyte's execution environment (DecorateEnv)");
    }
    return Set(step, layers_.task, "from the task");
  }

  // Step C2 (reference §2.6): override > the container's own > the
  // template's > platform defaults, then limit = request and the clamp.
  void InferResource(StageKind kind, const std::string& rest, const doc::Node& value, Step* step) const {
    const std::size_t dot = rest.find('.');
    if (dot == std::string::npos) {
      return Set(step, kind == StageKind::kFlyteAdmin ? layers_.task_resources : layers_.propeller,
                 "resource defaults");
    }
    const std::string side = rest.substr(0, dot);
    std::string key = rest.substr(dot + 1);
    if (key.size() > 2 && key.front() == '[' && key.back() == ']') key = key.substr(1, key.size() - 2);
    const flyte::Execution& execution = trace_.task.execution;
    if (SameQuantity(value, ResourceAt(execution.override_resources, side, key))) {
      return Set(step, layers_.overrides, "the execution's resources override",
                 FindUnder(trace_.task_document, "overrides", "resources"));
    }
    const bool platform_given = !trace_.task_as_written.execution.platform_resources.is_null();
    const std::string other = side == "limits" ? "requests" : "limits";
    if (SameQuantity(value, ResourceAt(execution.platform_resources, "limits", key)) && side == "limits") {
      return PlatformStep(platform_given, "limits", key, "the platform limit", step);
    }
    if (kind == StageKind::kFlyteAdmin || kind == StageKind::kCustomized) {
      if (SameQuantity(value, ResourceAt(execution.platform_resources, side, key))) {
        return PlatformStep(platform_given, side == "limits" ? "limits" : "defaults", key,
                            side == "limits" ? "the platform limit" : "the platform default", step);
      }
      if (SameQuantity(value, ResourceAt(execution.platform_resources, "limits", key))) {
        return PlatformStep(platform_given, "limits", key, "the platform limit (clamped)", step);
      }
    }
    const flyte::PluginConfig& config = trace_.config;
    if ((key == "cpu" && value.source_text() == config.default_cpus) ||
        (key == "memory" && value.source_text() == config.default_memory)) {
      return Set(step, layers_.plugin, key == "cpu" ? "default-cpus" : "default-memory");
    }
    return Set(step, kind == StageKind::kFlyteAdmin ? layers_.task_resources : layers_.propeller,
               "resource defaults: " + side + " from " + other + " where unset, then clamped");
  }

  void PlatformStep(bool given, const std::string& section, const std::string& key, const std::string& what,
                    Step* step) const {
    if (given) {
      return Set(step, layers_.overrides, what + " (the execution's platformResources)",
                 FindUnder(trace_.task_document, "platformResources", key));
    }
    std::string config_key = key == "ephemeral-storage" ? "ephemeralStorage" : key == "nvidia.com/gpu" ? "gpu" : key;
    return Set(step, layers_.task_resources, what + " (flyteadmin's task_resources." + section + ")",
               FindUnder(trace_.task_resources_section, section, config_key));
  }

  // addObjectMetadata: UnionMaps(default, pod, task metadata, execution),
  // later maps winning; the pod's own maps are the merge of the template's
  // and the task's (and the override's).
  bool InferMetadata(const std::string& path, const doc::Node& value, Step* step) const {
    const bool labels = StartsWith(path, "metadata.labels");
    const std::string parent = labels ? "metadata.labels" : "metadata.annotations";
    if (!value.is_string()) return false;
    const flyte::Task& task = trace_.task;
    const flyte::PluginConfig& config = trace_.config;
    struct Source {
      const StringMap* map;
      std::size_t layer;
      std::string detail;
      Location at;
    };
    auto key_of = [&](const StringMap& map) -> const std::string* {
      for (const auto& [k, v] : map) {
        if (ChildPath(parent, k) == path) return &k;
      }
      return nullptr;
    };
    static const StringMap kBuiltin = {{"cluster-autoscaler.kubernetes.io/safe-to-evict", "false"}};
    const StringMap primary = {{"primary_container_name", trace_.compose.primary}};
    const bool metadata_layer = flyte::ReleaseOf(trace_.version).task_metadata_layer;
    std::vector<Source> sources;  // highest first
    const StringMap& execution_map = labels ? execution_.labels : execution_.annotations;
    const StringMap& given = labels ? task.execution.labels : task.execution.annotations;
    if (const std::string* k = key_of(execution_map); k != nullptr && execution_map.at(*k) == value.string_value()) {
      if (given.count(*k) != 0 && given.at(*k) == value.string_value()) {
        sources.push_back({&given, layers_.overrides, std::string("the execution's ") + (labels ? "labels" : "annotations"),
                           FindUnder(trace_.task_document, "execution", *k)});
      } else {
        sources.push_back({&execution_map, layers_.propeller,
                           labels ? "execution labels (execution-id, project, domain, ...)"
                                  : "execution annotations (secrets, execution metadata)",
                           {}});
      }
    }
    if (metadata_layer) {
      sources.push_back({labels ? &task.metadata_labels : &task.metadata_annotations, layers_.task,
                         "the task's metadata", {}});
    }
    if (!labels) sources.push_back({&primary, layers_.propeller, "primary_container_name set by the pod plugin", {}});
    if (task.execution.has_pod_template_override) {
      sources.push_back({labels ? &task.execution.override_labels : &task.execution.override_annotations,
                         layers_.overrides, "the execution's pod_template override", {}});
    }
    sources.push_back({labels ? &task.pod_labels : &task.pod_annotations, layers_.task, "the task's pod metadata", {}});
    if (labels) {
      sources.push_back({&config.default_labels, layers_.plugin, "default-labels", {}});
    } else if (config.default_annotations) {
      sources.push_back({&*config.default_annotations, layers_.plugin, "default-annotations", {}});
    } else {
      sources.push_back({&kBuiltin, layers_.propeller, "the built-in default annotation (default-annotations unset)", {}});
    }
    for (const Source& source : sources) {
      const std::string* k = key_of(*source.map);
      if (k == nullptr || source.map->at(*k) != value.string_value() || source.layer == kNone) continue;
      Location at = source.at;
      if (!at.known() && source.layer == layers_.plugin) {
        at = FindUnder(trace_.config_document, labels ? "default-labels" : "default-annotations", *k);
      }
      Set(step, source.layer, source.detail, at);
      return true;
    }
    if (layers_.template_ != kNone) {
      Set(step, layers_.template_, "from " + template_name_);
      return true;
    }
    return false;
  }

  const TaskTrace& trace_;
  Layers layers_;
  std::vector<Region> regions_;
  std::vector<StageKind> kinds_;
  std::vector<std::unordered_map<std::string, doc::Node>> nodes_;
  const Stage* stage_base_ = nullptr;
  std::string template_name_;
  flyte::TaskExecutionMetadata execution_;
};

// The item path's list and the item's value: a deleted item equal to one
// the rendered list still holds only changed its path (a list that was
// keyed by name and is indexed once two items share a name).
bool MovedNotDeleted(const Field& field, const std::unordered_map<std::string, doc::Node>& rendered) {
  if (field.present || field.chain.size() < 2 || field.path.empty() || field.path.back() != ']') return false;
  const doc::Node& last = field.chain[field.chain.size() - 2].value;
  const std::size_t open = field.path.rfind('[');
  auto list = rendered.find(field.path.substr(0, open));
  if (list == rendered.end() || !list->second.is_sequence()) return false;
  const std::vector<doc::Node>& items = list->second.items();
  return std::find(items.begin(), items.end(), last) != items.end();
}

// default-labels and default-annotations enter only at addObjectMetadata,
// as the lowest of its maps: a key another layer sets too never shows them
// in a stage, so their value goes first in its chain.
void PrependPluginDefault(const TaskTrace& trace, std::size_t plugin_layer, Field* field) {
  const bool labels = StartsWith(field->path, "metadata.labels");
  if (!labels && !StartsWith(field->path, "metadata.annotations")) return;
  if (!trace.config.default_annotations && !labels) return;
  const std::string parent = labels ? "metadata.labels" : "metadata.annotations";
  const StringMap& defaults = labels ? trace.config.default_labels : *trace.config.default_annotations;
  for (const auto& [key, value] : defaults) {
    if (ChildPath(parent, key) != field->path) continue;
    if (field->chain.empty() || field->chain.front().layer == plugin_layer) return;
    Step step;
    step.layer = plugin_layer;
    step.value = doc::Node::String(value);
    step.location = FindUnder(trace.config_document, labels ? "default-labels" : "default-annotations", key);
    step.detail = std::string(labels ? "default-labels" : "default-annotations") + ": the lowest of the Pod's maps";
    field->chain.insert(field->chain.begin(), std::move(step));
    return;
  }
}

}  // namespace

Explanation ExplainFlyteTask(const TaskTrace& trace) {
  const flyte::Task& task = trace.task;
  const flyte::ComposeTrace& compose = trace.compose;
  Explanation out;
  out.subject = "task " + task.namespace_ + "/" + task.name;
  out.target = trace.target;

  Layers layers;
  auto add_layer = [&](LayerKind kind, std::string name, Location at) {
    out.layers.push_back({kind, std::move(name), at});
    return out.layers.size() - 1;
  };
  const bool templated = compose.role != flyte::TemplateRole::kNone;
  if (templated) {
    const bool by_default = compose.role == flyte::TemplateRole::kDefault;
    layers.template_ =
        add_layer(by_default ? LayerKind::kFlyteDefaultTemplate : LayerKind::kFlytePrimaryTemplate,
                  std::string(by_default ? "default template " : "pod template ") + compose.template_namespace + "/" +
                      compose.template_name,
                  compose.template_used.location);
  }
  layers.task = add_layer(LayerKind::kFlyteTask, "task " + task.namespace_ + "/" + task.name, task.location);
  const doc::Node* execution = trace.task_document.is_mapping() ? trace.task_document.Find("execution") : nullptr;
  layers.task_resources = add_layer(LayerKind::kFlyteTaskResources,
                                    trace.config.task_resources_configured ? "flyteadmin task_resources"
                                                                           : "flyteadmin task_resources (built-in)",
                                    trace.task_resources_section.location());
  layers.overrides = add_layer(LayerKind::kFlyteExecutionOverrides, "execution",
                               execution != nullptr ? execution->location() : Location{});
  layers.plugin = add_layer(LayerKind::kFlytePluginConfig,
                            trace.config_document.is_null() ? "plugins.k8s (built-in)" : "plugins.k8s",
                            trace.config_document.location());
  layers.propeller = add_layer(LayerKind::kFlytePropeller, "flytepropeller", {});

  // Regions, the narrower first: the execution within the task document,
  // task_resources within a configuration document.
  std::vector<Region> regions(5);
  if (execution != nullptr) regions[0].AddTree(*execution);
  regions[0].layer = layers.overrides;
  regions[1].AddTree(trace.task_resources_section);
  regions[1].layer = layers.task_resources;
  if (templated) {
    regions[2].Add(compose.template_used.location);
    regions[2].AddTree(compose.template_used.written);
    regions[2].AddTree(compose.template_used.metadata);
    regions[2].layer = layers.template_;
  }
  regions[3].AddTree(trace.task_document);
  regions[3].layer = layers.task;
  regions[4].AddTree(trace.config_document);
  regions[4].layer = layers.plugin;

  // The stages, each the Pod as if composed from that step's base.
  auto onto = [&](const doc::Node& spec, const StringMap& labels, const StringMap& annotations) {
    if (!templated) return PodOf(MetadataOf(labels, annotations), spec);
    flyte::TemplateMerge merged =
        flyte::MergeOntoTemplate(compose.template_used, spec, compose.primary, labels, annotations, trace.version);
    return PodOf(merged.metadata, merged.spec);
  };
  std::vector<Stage> stages;
  std::vector<StageKind> kinds;
  auto stage = [&](StageKind kind, std::size_t layer, doc::Node pod) {
    stages.push_back({layer, std::move(pod)});
    kinds.push_back(kind);
  };
  if (templated) {
    const doc::Node metadata =
        compose.template_used.metadata.is_mapping() ? compose.template_used.metadata : doc::Node::Mapping();
    stage(StageKind::kTemplate, layers.template_, PodOf(metadata, compose.template_used.spec));
    stage(StageKind::kTemplateApplied, layers.propeller, onto(NamesOnly(compose.customized.spec), {}, {}));
  }
  const flyte::Task& written = trace.task_as_written;
  stage(StageKind::kTaskWritten, layers.task, onto(WrittenSpec(written), written.pod_labels, written.pod_annotations));
  stage(StageKind::kFlyteAdmin, layers.task_resources, onto(WrittenSpec(task), task.pod_labels, task.pod_annotations));
  stage(StageKind::kBasePod, task.execution.has_pod_template_override ? layers.overrides : layers.propeller,
        onto(compose.after_base.spec, compose.after_base.labels, compose.after_base.annotations));
  stage(StageKind::kCustomized, layers.propeller,
        onto(compose.customized.spec, compose.customized.labels, compose.customized.annotations));
  stage(StageKind::kExtended, layers.propeller, PodOf(compose.merged_metadata, compose.extended_spec));
  stage(StageKind::kFinal, layers.propeller, trace.pod);

  Attributor attributor(trace, layers, std::move(regions), std::move(kinds), stages);
  attributor.set_stage_base(stages.data());
  std::vector<Field> fields = ChainsFromStages(
      stages, [&](const Stage& s, const std::string& path, const doc::Node& value, Step* step) {
        return attributor(s, path, value, step);
      });

  std::unordered_map<std::string, doc::Node> rendered;
  WalkFields(trace.pod, [&](const std::string& path, const doc::Node& node, const std::string*, std::size_t) {
    rendered.emplace(path, node);
  });
  ObjectExplanation object;
  object.object = trace.pod;
  for (Field& field : fields) {
    if (MovedNotDeleted(field, rendered)) continue;
    PrependPluginDefault(trace, layers.plugin, &field);
    object.fields.push_back(std::move(field));
  }
  out.objects.push_back(std::move(object));
  return out;
}

}  // namespace tjr::explain
