#include "flyte/task_resources.h"

#include <array>
#include <string_view>
#include <utility>

#include "flyte/compose.h"
#include "flyte/resources.h"
#include "flyte/task.h"
#include "flyte/task_fields.h"
#include "flyte/release.h"

namespace tjr::flyte {
namespace {

// The fields of a TaskResourceSet: its json tag (flytestdlib) and its
// TaskResourceSpec proto name (matchable attributes).
struct Field {
  std::string_view json, proto;
  typed::Quantity TaskResourceSet::*member;
};
constexpr std::array<Field, 4> kFields = {{
    {"cpu", "cpu", &TaskResourceSet::cpu},
    {"gpu", "gpu", &TaskResourceSet::gpu},
    {"memory", "memory", &TaskResourceSet::memory},
    {"ephemeralStorage", "ephemeral_storage", &TaskResourceSet::ephemeral_storage},
}};

typed::Quantity Parsed(std::string_view text) {
  Result<typed::Quantity> q = typed::Quantity::Parse(text);
  return q.ok() ? *q : typed::Quantity();
}

Status DecodeSet(const doc::Node& set, const std::string& path, TaskResourceSet* out) {
  if (set.is_null()) return Ok();
  if (!set.is_mapping()) return Error(set, path, "must be a mapping of quantities");
  for (const Field& field : kFields) {
    const doc::Node* value = GetFolded(set, field.json);
    if (value == nullptr) continue;
    if (!value->is_string() && !value->is_int() && !value->is_float() && !value->is_null()) {
      return Error(*value, path + "." + std::string(field.json), "must be a quantity");
    }
    typed::Quantity q = out->*field.member;
    if (Status s = q.UnmarshalJson(*value); !s.ok()) {
      return Error(*value, path + "." + std::string(field.json), s.error().message);
    }
    out->*field.member = q;
  }
  return Ok();
}

// fromAdminProtoTaskResourceSpec: a non-empty string field, parsed; zero
// when it does not parse.
Result<TaskResourceSet> FromSpec(const doc::Node* spec, const std::string& path) {
  TaskResourceSet out;
  if (spec == nullptr) return out;
  if (!spec->is_mapping()) return Error(*spec, path, "must be a TaskResourceSpec mapping");
  for (const Field& field : kFields) {
    Result<std::string> text = String(*spec, field.json, field.proto, path + "." + std::string(field.json));
    if (!text.ok()) return text.take_error();
    if (!text->empty()) out.*field.member = Parsed(*text);
  }
  return out;
}

ResourceValue ValueOf(const typed::Quantity& q) { return {q, q.String()}; }

}  // namespace

TaskResources BuiltInTaskResources() {
  TaskResources r;
  r.defaults.cpu = Parsed("2");
  r.defaults.memory = Parsed("200Mi");
  r.limits.cpu = Parsed("2");
  r.limits.memory = Parsed("1Gi");
  r.limits.gpu = Parsed("1");
  return r;
}

Status DecodeTaskResourcesSection(const doc::Node& section, TaskResources* out) {
  if (section.is_null()) return Ok();
  if (!section.is_mapping()) return Error(section, "task_resources", "must be a mapping {defaults, limits}");
  TaskResources decoded = *out;
  for (auto [name, set] : {std::pair{"defaults", &decoded.defaults}, std::pair{"limits", &decoded.limits}}) {
    const doc::Node* value = GetFolded(section, name);
    if (value == nullptr) continue;
    if (Status s = DecodeSet(*value, std::string("task_resources.") + name, set); !s.ok()) return s;
  }
  *out = decoded;
  return Ok();
}

Result<TaskResources> FromTaskResourceAttributes(const doc::Node& attributes, const std::string& path) {
  if (!attributes.is_mapping()) return Error(attributes, path, "must be a mapping {defaults, limits}");
  TaskResources out;
  Result<TaskResourceSet> defaults = FromSpec(Get(attributes, "defaults"), path + ".defaults");
  if (!defaults.ok()) return defaults.take_error();
  Result<TaskResourceSet> limits = FromSpec(Get(attributes, "limits"), path + ".limits");
  if (!limits.ok()) return limits.take_error();
  out.defaults = *defaults;
  out.limits = *limits;
  return out;
}

doc::Node PlatformResourcesOf(const TaskResources& resources) {
  auto list = [](const TaskResourceSet& set) {
    doc::Node map = doc::Node::Mapping();
    map.Set("cpu", doc::Node::String(set.cpu.String()));
    map.Set("ephemeral-storage", doc::Node::String(set.ephemeral_storage.String()));
    map.Set("memory", doc::Node::String(set.memory.String()));
    // utils.ResourceNvidiaGPU, whatever gpu-resource-name says.
    map.Set("nvidia.com/gpu", doc::Node::String(set.gpu.String()));
    return map;
  };
  doc::Node out = doc::Node::Mapping();
  out.Set("limits", list(resources.limits));
  out.Set("requests", list(resources.defaults));
  return out;
}

void SetCompiledTaskDefaults(doc::Node* container, const TaskResources& platform) {
  const doc::Node* resources = container->Find("resources");
  // GetCompleteTaskResourceRequirements: the task's own values (the list
  // was parsed already, so none fails).
  auto own = [&](const char* list, std::string_view name) {
    const doc::Node* map = resources != nullptr ? resources->Find(list) : nullptr;
    const doc::Node* value = map != nullptr && map->is_mapping() ? map->Find(name) : nullptr;
    // Resources written in Kubernetes' form may say `gpu`, which
    // SanitizeGPUResourceRequirements would rename.
    if (value == nullptr && name == "nvidia.com/gpu" && map != nullptr && map->is_mapping()) value = map->Find("gpu");
    if (value == nullptr || !value->is_string()) return ResourceValue{};
    return ResourceValue{Parsed(value->string_value()), value->string_value()};
  };
  doc::Node requests = doc::Node::Mapping();
  doc::Node limits = doc::Node::Mapping();
  struct Entry {
    const char* name;
    typed::Quantity TaskResourceSet::*member;
    bool always;
  };
  for (const Entry& entry : {Entry{"cpu", &TaskResourceSet::cpu, true},
                             Entry{"memory", &TaskResourceSet::memory, true},
                             Entry{"ephemeral-storage", &TaskResourceSet::ephemeral_storage, false},
                             Entry{"nvidia.com/gpu", &TaskResourceSet::gpu, false}}) {
    ResourceValue request = own("requests", entry.name);
    ResourceValue limit = own("limits", entry.name);
    const typed::Quantity& platform_default = platform.defaults.*entry.member;
    if (!entry.always && request.q.is_zero() && limit.q.is_zero() && platform_default.is_zero()) continue;
    ResourceRange adjusted =
        AdjustOrDefault(request, limit, ValueOf(platform_default), ValueOf(platform.limits.*entry.member));
    // flyteadmin writes Quantity.String(); ToK8sResourceList drops zeros.
    if (!adjusted.request.q.is_zero()) requests.Set(entry.name, doc::Node::String(adjusted.request.q.String()));
    if (!adjusted.limit.q.is_zero()) limits.Set(entry.name, doc::Node::String(adjusted.limit.q.String()));
  }
  doc::Node rewritten = doc::Node::Mapping();
  rewritten.Set("limits", std::move(limits));
  rewritten.Set("requests", std::move(requests));
  container->Set("resources", std::move(rewritten));
}

bool LaunchedByFlyteAdmin(Version version) { return ReleaseOf(version).launched_by_flyteadmin; }

void LaunchThroughFlyteAdmin(Task* task, const TaskResources& configured, Version version) {
  if (!task->execution.platform_resources.is_null()) return;
  if (!LaunchedByFlyteAdmin(version)) {
    task->execution.platform_resources = doc::Node::Mapping();
    return;
  }
  const TaskResources& platform =
      task->execution.task_resource_attributes ? *task->execution.task_resource_attributes : configured;
  if (task->has_container) SetCompiledTaskDefaults(&task->container, platform);
  task->execution.platform_resources = PlatformResourcesOf(platform);
}

}  // namespace tjr::flyte
