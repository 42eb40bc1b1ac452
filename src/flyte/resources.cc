#include "flyte/resources.h"

#include <map>
#include <string>

#include "typed/quantity.h"

namespace tjr::flyte {
namespace {

// A resource list as Go holds it: name -> quantity text, plus whether the
// map is nil.
struct List {
  bool set = false;
  std::map<std::string, std::string> values;
};

List ReadList(const doc::Node* resources, const char* key) {
  List list;
  if (resources == nullptr) return list;
  const doc::Node* map = resources->Find(key);
  if (map == nullptr || !map->is_mapping()) return list;
  list.set = true;
  for (const doc::Field& entry : map->fields()) {
    list.values[entry.key] = entry.value.is_string() ? entry.value.string_value()
                                                      : entry.value.source_text();
  }
  return list;
}

struct Requirements {
  List limits;
  List requests;
};

Requirements Read(const doc::Node* resources) {
  return {ReadList(resources, "limits"), ReadList(resources, "requests")};
}

// MergeResources: `in` overwrites per key.
void Merge(const Requirements& in, Requirements* out) {
  for (auto [from, to] : {std::pair{&in.limits, &out->limits}, std::pair{&in.requests, &out->requests}}) {
    if (!to->set) {
      *to = *from;
    } else if (from->set) {
      for (const auto& [k, v] : from->values) to->values[k] = v;
    }
  }
}

// MergeResourcesIfMissing: `in` fills keys `out` lacks.
void MergeIfMissing(const Requirements& in, Requirements* out) {
  for (auto [from, to] : {std::pair{&in.limits, &out->limits}, std::pair{&in.requests, &out->requests}}) {
    if (!from->set) continue;
    to->set = true;
    for (const auto& [k, v] : from->values) to->values.try_emplace(k, v);
  }
}

Result<typed::Quantity> Parse(const std::string& text) {
  if (text.empty()) return typed::Quantity();
  return typed::Quantity::Parse(text);
}

Result<ResourceValue> Lookup(const List& list, const std::string& name) {
  auto it = list.values.find(name);
  if (it == list.values.end()) return ResourceValue{};
  Result<typed::Quantity> q = Parse(it->second);
  if (!q.ok()) return q.take_error();
  return ResourceValue{*q, it->second};
}

// ensureResourceLimit
ResourceValue Clamp(const ResourceValue& value, const ResourceValue& limit) {
  if (value.q.is_zero() || limit.q.is_zero()) return value;
  return typed::Compare(value.q, limit.q) == 1 ? limit : value;
}

Status Adjust(const std::string& name, Requirements* resources, const Requirements& platform,
              bool assign_if_unset) {
  Result<ResourceValue> request = Lookup(resources->requests, name);
  if (!request.ok()) return request.take_error();
  Result<ResourceValue> limit = Lookup(resources->limits, name);
  if (!limit.ok()) return limit.take_error();
  Result<ResourceValue> platform_default = Lookup(platform.requests, name);
  if (!platform_default.ok()) return platform_default.take_error();
  Result<ResourceValue> platform_limit = Lookup(platform.limits, name);
  if (!platform_limit.ok()) return platform_limit.take_error();
  ResourceRange adjusted = assign_if_unset ? AdjustOrDefault(*request, *limit, *platform_default, *platform_limit)
                                           : EnsureResourceRange(*request, *limit, *platform_limit);
  resources->requests.values[name] = adjusted.request.text;
  resources->limits.values[name] = adjusted.limit.text;
  return Ok();
}

// ApplyResourceOverrides
Status ApplyOverrides(Requirements* resources, Requirements platform, const PluginConfig& config,
                      bool assign_if_unset) {
  resources->requests.set = true;
  resources->limits.set = true;
  platform.requests.set = true;
  platform.limits.set = true;
  platform.requests.values.try_emplace("cpu", config.default_cpus);
  platform.requests.values.try_emplace("memory", config.default_memory);
  for (const char* name : {"cpu", "memory"}) {
    if (Status s = Adjust(name, resources, platform, assign_if_unset); !s.ok()) return s;
  }
  for (const std::string& name : {std::string("ephemeral-storage"), config.gpu_resource_name}) {
    if (resources->requests.values.contains(name) || resources->limits.values.contains(name)) {
      if (Status s = Adjust(name, resources, platform, assign_if_unset); !s.ok()) return s;
    }
  }
  return Ok();
}

doc::Node Write(const List& list) {
  doc::Node map = doc::Node::Mapping();
  for (const auto& [k, v] : list.values) map.Set(k, doc::Node::String(v));
  return map;
}

}  // namespace

ResourceRange EnsureResourceRange(ResourceValue request, ResourceValue limit, const ResourceValue& platform_limit) {
  request = Clamp(request, platform_limit);
  limit = Clamp(limit, platform_limit);
  request = Clamp(request, limit);
  return {request, limit};
}

ResourceRange AdjustOrDefault(ResourceValue request, ResourceValue limit, const ResourceValue& platform_default,
                              const ResourceValue& platform_limit) {
  if (request.q.is_zero()) request = !limit.q.is_zero() ? limit : platform_default;
  if (limit.q.is_zero()) limit = request;
  return EnsureResourceRange(request, limit, platform_limit);
}

Status CustomizeResources(doc::Node* container, ResourceMode mode, const ResourceInputs& inputs) {
  Requirements own = Read(container->Find("resources"));
  // SanitizeGPUResourceRequirements
  for (List* list : {&own.requests, &own.limits}) {
    auto gpu = list->values.find("gpu");
    if (gpu != list->values.end()) {
      std::string value = gpu->second;
      list->values.erase(gpu);
      list->values[inputs.config->gpu_resource_name] = value;
    }
  }
  Requirements from_template = Read(inputs.template_resources);
  Requirements platform = Read(inputs.platform_resources);
  Status status = Ok();
  if (mode == ResourceMode::kMergeExisting) {
    Merge(Read(inputs.override_resources), &own);
    MergeIfMissing(from_template, &own);
    status = ApplyOverrides(&own, platform, *inputs.config, true);
  } else {
    MergeIfMissing(from_template, &own);
    status = ApplyOverrides(&own, platform, *inputs.config, false);
  }
  if (!status.ok()) {
    Diagnostic error = status.take_error();
    error.location = container->location();
    return error;
  }
  doc::Node resources = doc::Node::Mapping();
  resources.Set("limits", Write(own.limits));
  resources.Set("requests", Write(own.requests));
  container->Set("resources", std::move(resources));
  return Ok();
}

doc::Node TemplateResources(const doc::Node& template_spec, const std::string& name, bool init) {
  const doc::Node* list = template_spec.Find(init ? "initContainers" : "containers");
  if (list == nullptr || !list->is_sequence()) return doc::Node();
  auto find = [&](const std::string& wanted) -> const doc::Node* {
    for (const doc::Node& c : list->items()) {
      const doc::Node* n = c.Find("name");
      if (n != nullptr && n->is_string() && n->string_value() == wanted) return &c;
    }
    return nullptr;
  };
  for (const std::string& wanted :
       {name, std::string(init ? "primary-init" : "primary"), std::string(init ? "default-init" : "default")}) {
    if (const doc::Node* c = find(wanted)) {
      const doc::Node* r = c->Find("resources");
      return r != nullptr ? *r : doc::Node::Mapping();
    }
  }
  return doc::Node();
}

}  // namespace tjr::flyte
