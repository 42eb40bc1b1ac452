#include "flyte/config.h"

#include <charconv>

#include <algorithm>
#include <cctype>
#include <utility>

#include "flyte/typed_value.h"
#include "yaml/reader.h"

namespace tjr::flyte {
namespace {

Diagnostic ShapeError(const doc::Node& at, const std::string& key, const std::string& what) {
  return MakeError(at.location(), "plugins.k8s." + key, "must be " + what + ", found " +
                                                            std::string(doc::KindName(at.kind())));
}

// mapstructure's weakly typed decoding: scalars become their text.
bool ScalarText(const doc::Node& value, std::string* out) {
  switch (value.kind()) {
    case doc::Kind::kString:
      *out = value.string_value();
      return true;
    case doc::Kind::kBool:
      *out = value.bool_value() ? "true" : "false";
      return true;
    case doc::Kind::kInt:
    case doc::Kind::kFloat:
      *out = value.source_text().empty() ? (value.is_int() ? std::to_string(value.int_value())
                                                            : std::to_string(value.float_value()))
                                         : value.source_text();
      return true;
    case doc::Kind::kNull:
      out->clear();
      return true;
    default:
      return false;
  }
}

// What viper (v1.21) and flytestdlib's key restoration make of a config
// file: map keys are lower-cased, except keys holding a "." (restored as
// written, with their value as written) and everything inside a list
// (restored as written).
doc::Node ViperKeys(const doc::Node& value) {
  if (!value.is_mapping()) return value;
  doc::Node out = doc::Node::Mapping(value.location());
  for (const doc::Field& entry : value.fields()) {
    if (entry.key.find('.') != std::string::npos) {
      out.Set(entry.key, entry.value, entry.key_location);
      continue;
    }
    std::string key = entry.key;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.Set(key, entry.value.is_sequence() ? entry.value : ViperKeys(entry.value), entry.key_location);
  }
  return out;
}

// sliceToMapHook: a list of maps stands for their union (the documented way
// to keep upper-case keys).
const doc::Node* AsMap(const doc::Node& value, doc::Node* scratch) {
  if (!value.is_sequence()) return &value;
  *scratch = doc::Node::Mapping(value.location());
  for (const doc::Node& item : value.items()) {
    if (!item.is_mapping()) return &value;
    for (const doc::Field& entry : item.fields()) scratch->Set(entry.key, entry.value, entry.key_location);
  }
  return scratch;
}

Status ReadStringMap(const doc::Node& written, const std::string& key, StringMap* out) {
  out->clear();
  doc::Node scratch;
  const doc::Node& value = *AsMap(written, &scratch);
  if (value.is_null()) return Ok();
  if (!value.is_mapping()) return ShapeError(value, key, "a map of strings");
  for (const doc::Field& entry : value.fields()) {
    std::string text;
    if (!ScalarText(entry.value, &text)) {
      return ShapeError(entry.value, key + "." + entry.key, "a string");
    }
    (*out)[entry.key] = text;
  }
  return Ok();
}

Status ReadStringList(const doc::Node& value, const std::string& key,
                      std::vector<std::string>* out) {
  out->clear();
  if (value.is_null()) return Ok();
  std::string single;
  if (!value.is_sequence() && ScalarText(value, &single)) {  // weak decoding: one value
    out->push_back(single);
    return Ok();
  }
  if (!value.is_sequence()) return ShapeError(value, key, "a list of strings");
  for (const doc::Node& item : value.items()) {
    std::string text;
    if (!ScalarText(item, &text)) return ShapeError(item, key, "a list of strings");
    out->push_back(text);
  }
  return Ok();
}

Status ReadString(const doc::Node& value, const std::string& key, std::string* out) {
  if (!ScalarText(value, out)) return ShapeError(value, key, "a string");
  return Ok();
}

Status ReadTyped(const doc::Node& value, const std::string& key, std::string_view go_type,
                 doc::Node* out) {
  if (value.is_null()) {
    *out = doc::Node();
    return Ok();
  }
  // mapstructure's weak decoding lifts a single value into a list.
  doc::Node lifted = value;
  if (go_type.starts_with("[]") && value.is_mapping()) {
    lifted = doc::Node::Sequence(value.location());
    lifted.push_back(value);
  }
  Result<doc::Node> typed = ToGoForm(lifted, go_type);
  if (!typed.ok()) {
    Diagnostic error = typed.take_error();
    error.field_path = "plugins.k8s." + key;
    return error;
  }
  *out = std::move(*typed);
  return Ok();
}

Status ReadBool(const doc::Node& value, const std::string& key, bool* out) {
  if (value.is_bool()) {
    *out = value.bool_value();
    return Ok();
  }
  // strconv.ParseBool, as mapstructure's weak decoding uses.
  if (value.is_string()) {
    const std::string& s = value.string_value();
    if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") {
      *out = true;
      return Ok();
    }
    if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") {
      *out = false;
      return Ok();
    }
  }
  return ShapeError(value, key, "a boolean");
}

Status Apply(const std::string& key, const doc::Node& value, PluginConfig* config) {
  if (key == "default-annotations") {
    config->default_annotations.emplace();
    return ReadStringMap(value, key, &*config->default_annotations);
  }
  if (key == "default-labels") return ReadStringMap(value, key, &config->default_labels);
  if (key == "default-env-vars") return ReadStringMap(value, key, &config->default_env_vars);
  if (key == "default-env-vars-from-env") {
    return ReadStringMap(value, key, &config->default_env_vars_from_env);
  }
  if (key == "default-env-from-configmaps") {
    return ReadStringList(value, key, &config->default_env_from_configmaps);
  }
  if (key == "default-env-from-secrets") {
    return ReadStringList(value, key, &config->default_env_from_secrets);
  }
  if (key == "default-node-selector") {
    return ReadStringMap(value, key, &config->default_node_selector);
  }
  if (key == "interruptible-node-selector") {
    return ReadStringMap(value, key, &config->interruptible_node_selector);
  }
  if (key == "default-tolerations") {
    return ReadTyped(value, key, "[]Toleration", &config->default_tolerations);
  }
  if (key == "interruptible-tolerations") {
    return ReadTyped(value, key, "[]Toleration", &config->interruptible_tolerations);
  }
  if (key == "resource-tolerations") {
    config->resource_tolerations.clear();
    if (value.is_null()) return Ok();
    doc::Node scratch;
    const doc::Node& map = *AsMap(value, &scratch);
    if (!map.is_mapping()) return ShapeError(value, key, "a map of toleration lists");
    for (const doc::Field& entry : map.fields()) {
      doc::Node list;
      if (Status s = ReadTyped(entry.value, key + "." + entry.key, "[]Toleration", &list); !s.ok()) {
        return s;
      }
      config->resource_tolerations[entry.key] = list;
    }
    return Ok();
  }
  if (key == "default-affinity") return ReadTyped(value, key, "Affinity", &config->default_affinity);
  if (key == "interruptible-node-selector-requirement") {
    return ReadTyped(value, key, "NodeSelectorRequirement",
                     &config->interruptible_node_selector_requirement);
  }
  if (key == "non-interruptible-node-selector-requirement") {
    return ReadTyped(value, key, "NodeSelectorRequirement",
                     &config->non_interruptible_node_selector_requirement);
  }
  if (key == "gpu-unpartitioned-node-selector-requirement") {
    return ReadTyped(value, key, "NodeSelectorRequirement",
                     &config->gpu_unpartitioned_node_selector_requirement);
  }
  if (key == "gpu-unpartitioned-toleration") {
    return ReadTyped(value, key, "Toleration", &config->gpu_unpartitioned_toleration);
  }
  if (key == "default-pod-security-context") {
    return ReadTyped(value, key, "PodSecurityContext", &config->default_pod_security_context);
  }
  if (key == "default-security-context") {
    return ReadTyped(value, key, "SecurityContext", &config->default_security_context);
  }
  if (key == "default-pod-dns-config") {
    return ReadTyped(value, key, "PodDNSConfig", &config->default_pod_dns_config);
  }
  if (key == "enable-host-networking-pod") {
    if (value.is_null()) {
      config->enable_host_networking_pod.reset();
      return Ok();
    }
    bool on = false;
    if (Status s = ReadBool(value, key, &on); !s.ok()) return s;
    config->enable_host_networking_pod = on;
    return Ok();
  }
  if (key == "inject-finalizer") return ReadBool(value, key, &config->inject_finalizer);
  if (key == "scheduler-name") return ReadString(value, key, &config->scheduler_name);
  if (key == "image-pull-policy") return ReadString(value, key, &config->image_pull_policy);
  if (key == "default-pod-template-name") {
    return ReadString(value, key, &config->default_pod_template_name);
  }
  if (key == "gpu-resource-name") return ReadString(value, key, &config->gpu_resource_name);
  if (key == "gpu-device-node-label") return ReadString(value, key, &config->gpu_device_node_label);
  if (key == "gpu-partition-size-node-label") {
    return ReadString(value, key, &config->gpu_partition_size_node_label);
  }
  if (key == "default-cpus") return ReadString(value, key, &config->default_cpus);
  if (key == "default-memory") return ReadString(value, key, &config->default_memory);
  return Ok();  // settings that do not shape the Pod
}

}  // namespace

Result<PluginConfig> ParsePluginConfig(const doc::Node& k8s_section) {
  PluginConfig config;
  config.location = k8s_section.location();
  if (k8s_section.is_null()) return config;
  if (!k8s_section.is_mapping()) return ShapeError(k8s_section, "", "a mapping");
  const doc::Node normalized = ViperKeys(k8s_section);
  for (const doc::Field& entry : normalized.fields()) {
    if (Status s = Apply(entry.key, entry.value, &config); !s.ok()) return s.take_error();
  }
  return config;
}

Status ApplyPropellerSection(const doc::Node& propeller_section, PluginConfig* config) {
  if (propeller_section.is_null()) return Ok();
  if (!propeller_section.is_mapping()) return ShapeError(propeller_section, "", "a mapping");
  const doc::Node normalized = ViperKeys(propeller_section);
  const doc::Node* offloading = normalized.Find("literal-offloading-config");
  if (offloading == nullptr || offloading->is_null()) return Ok();
  if (!offloading->is_mapping()) return ShapeError(*offloading, "literal-offloading-config", "a mapping");
  LiteralOffloadingConfig& out = config->literal_offloading;
  for (const doc::Field& entry : offloading->fields()) {
    const std::string key = "literal-offloading-config." + entry.key;
    if (entry.key == "enabled") {
      if (Status s = ReadBool(entry.value, key, &out.enabled); !s.ok()) return s;
    } else if (entry.key == "min-size-in-mb-for-offloading" || entry.key == "max-size-in-mb-for-offloading") {
      std::int64_t* target = entry.key[1] == 'i' ? &out.min_size_mb : &out.max_size_mb;
      if (entry.value.is_int()) {
        *target = entry.value.int_value();
      } else {
        // mapstructure's weak decoding takes a decimal string too.
        const std::string text = entry.value.is_string() ? entry.value.string_value() : "";
        std::int64_t parsed = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
          return ShapeError(entry.value, key, "an integer");
        }
        *target = parsed;
      }
    }
  }
  return Ok();
}

const doc::Node* FindK8sSection(const doc::Node& config_document) {
  const doc::Node* plugins = config_document.Find("plugins");
  if (plugins == nullptr || !plugins->is_mapping()) return nullptr;
  const doc::Node* k8s = plugins->Find("k8s");
  if (k8s == nullptr || !k8s->is_mapping()) return nullptr;
  return k8s;
}

void MergeConfigDocuments(doc::Node* base, const doc::Node& overlay) {
  if (!base->is_mapping() || !overlay.is_mapping()) {
    *base = overlay;
    return;
  }
  for (const doc::Field& entry : overlay.fields()) {
    doc::Node* existing = base->FindMutable(entry.key);
    if (existing != nullptr && existing->is_mapping() && entry.value.is_mapping()) {
      MergeConfigDocuments(existing, entry.value);
    } else {
      base->Set(entry.key, entry.value, entry.key_location);
    }
  }
}

namespace {

// flyte-core's propeller ConfigMap keys, sorted as propeller reads them.
constexpr const char* kFlyteCorePropellerKeys[] = {"admin", "catalog", "copilot", "core", "enabled_plugins",
                                                    "k8s", "logger", "otel", "resource_manager"};

std::optional<ChartValuesConfig> ChartValuesAt(const doc::Node& values, const std::string& prefix) {
  if (!values.is_mapping()) return std::nullopt;
  if (const doc::Node* configmap = values.Find("configmap"); configmap != nullptr && configmap->is_mapping()) {
    const doc::Node* k8s = configmap->Find("k8s");
    const doc::Node* admin_defaults = configmap->Find("task_resource_defaults");
    const bool has_k8s = k8s != nullptr && FindK8sSection(*k8s) != nullptr;
    // Values that leave plugins.k8s to the chart's defaults may still set
    // flyteadmin's task resources.
    const doc::Node* admin_section = admin_defaults != nullptr ? FindTaskResourcesSection(*admin_defaults) : nullptr;
    if (has_k8s || admin_section != nullptr) {
      ChartValuesConfig out{doc::Node::Mapping(values.location()), "flyte-core",
                            prefix + (has_k8s ? "configmap.k8s" : "configmap.task_resource_defaults"),
                            has_k8s ? FindK8sSection(*k8s)->location() : admin_section->location(), ""};
      // flyte-core's "flyte.namespace": default .Release.Namespace .Values.forceNamespace
      // (charts/flyte-core/templates/_helpers.tpl:11-13).
      if (const doc::Node* force = values.Find("forceNamespace"); force != nullptr && force->is_string()) {
        out.propeller_namespace = force->string_value();
      }
      for (const char* key : kFlyteCorePropellerKeys) {
        if (const doc::Node* file = configmap->Find(key); file != nullptr && file->is_mapping()) {
          MergeConfigDocuments(&out.document, *file);
        }
      }
      if (const doc::Node* admin = configmap->Find("task_resource_defaults"); admin != nullptr && admin->is_mapping()) {
        MergeConfigDocuments(&out.document, *admin);
      }
      return out;
    }
  }
  if (const doc::Node* configuration = values.Find("configuration");
      configuration != nullptr && configuration->is_mapping()) {
    const doc::Node* inline_config = configuration->Find("inline");
    if (inline_config != nullptr && FindK8sSection(*inline_config) != nullptr) {
      return ChartValuesConfig{*inline_config, "flyte-binary", prefix + "configuration.inline",
                               FindK8sSection(*inline_config)->location(), ""};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ChartValuesConfig> ConfigFromChartValues(const doc::Node& values) {
  if (!values.is_mapping() || values.Find("apiVersion") != nullptr || values.Find("kind") != nullptr) {
    return std::nullopt;
  }
  if (std::optional<ChartValuesConfig> top = ChartValuesAt(values, "")) return top;
  for (const doc::Field& field : values.fields()) {
    if (std::optional<ChartValuesConfig> nested = ChartValuesAt(field.value, field.key + ".")) return nested;
  }
  return std::nullopt;
}

const doc::Node* FindTaskResourcesSection(const doc::Node& config_document) {
  if (!config_document.is_mapping()) return nullptr;
  const doc::Node* section = config_document.Find("task_resources");
  return section != nullptr && section->is_mapping() ? section : nullptr;
}

std::optional<doc::Node> ConfigMapDocument(const doc::Node& configmap) {
  const doc::Node* data = configmap.is_mapping() ? configmap.Find("data") : nullptr;
  if (data == nullptr || !data->is_mapping()) return std::nullopt;
  std::vector<const doc::Field*> keys;
  for (const doc::Field& entry : data->fields()) {
    if ((entry.key.ends_with(".yaml") || entry.key.ends_with(".yml")) && entry.value.is_string()) {
      keys.push_back(&entry);
    }
  }
  // The chart mounts the keys as files and propeller reads them sorted.
  std::sort(keys.begin(), keys.end(),
            [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; });
  std::optional<doc::Node> merged;
  for (const doc::Field* entry : keys) {
    const Location& at = entry->value.location();
    std::string name = (at.file != nullptr ? *at.file : std::string("<configmap>")) + " data[" + entry->key + "]";
    Result<std::vector<doc::Node>> documents = yaml::ReadStream(entry->value.string_value(), name);
    if (!documents.ok()) continue;  // not every chart key is propeller configuration
    for (const doc::Node& document : *documents) {
      if (!document.is_mapping()) continue;
      if (!merged) {
        merged = document;
      } else {
        MergeConfigDocuments(&*merged, document);
      }
    }
  }
  return merged;
}

Result<std::optional<doc::Node>> K8sSectionFromConfigMap(const doc::Node& configmap, doc::Node* propeller_section,
                                                         doc::Node* task_resources_section) {
  const std::optional<doc::Node> merged = ConfigMapDocument(configmap);
  if (!merged) return std::optional<doc::Node>();
  if (const doc::Node* propeller = merged->Find("propeller"); propeller != nullptr && propeller_section != nullptr) {
    *propeller_section = *propeller;
  }
  if (const doc::Node* admin = FindTaskResourcesSection(*merged); admin != nullptr && task_resources_section != nullptr) {
    *task_resources_section = *admin;
  }
  const doc::Node* k8s = FindK8sSection(*merged);
  return k8s == nullptr ? std::optional<doc::Node>() : std::optional<doc::Node>(*k8s);
}

}  // namespace tjr::flyte
