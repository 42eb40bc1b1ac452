#include "flyte/task_fields.h"

#include <cctype>
#include <utility>

#include "flyte/typed_value.h"
#include "typed/quantity.h"

namespace tjr::flyte {

// Protobuf JSON parsers accept the lowerCamelCase JSON name and the proto
// field name.
const doc::Node* Get(const doc::Node& object, std::string_view camel, std::string_view snake) {
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

namespace {

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

}  // namespace

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

}  // namespace tjr::flyte
