#include "flyte/extended_resources.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "flyte/base_spec.h"
#include "flyte/node_util.h"
#include "flyte/task_fields.h"
#include "typed/quantity.h"

namespace tjr::flyte {
namespace {

Status ReadPart(const doc::Node& message, ExtendedResources* out) {
  if (const doc::Node* gpu = Get(message, "gpuAccelerator", "gpu_accelerator")) {
    ExtendedResources fresh;
    fresh.has_gpu_accelerator = true;
    Result<std::string> device = String(*gpu, "device", "", "extendedResources.gpuAccelerator.device");
    if (!device.ok()) return device.take_error();
    fresh.device = *device;
    if (const doc::Node* u = Get(*gpu, "unpartitioned"); u != nullptr && u->is_bool()) {
      fresh.unpartitioned = u->bool_value();
    } else if (const doc::Node* size = Get(*gpu, "partitionSize", "partition_size")) {
      if (!size->is_string()) {
        return Error(*size, "extendedResources.gpuAccelerator.partitionSize", "must be a string");
      }
      fresh.has_partition_size = true;
      fresh.partition_size = size->string_value();
    }
    out->has_gpu_accelerator = true;
    out->device = fresh.device;
    out->unpartitioned = fresh.unpartitioned;
    out->has_partition_size = fresh.has_partition_size;
    out->partition_size = fresh.partition_size;
  }
  if (const doc::Node* shm = Get(message, "sharedMemory", "shared_memory")) {
    out->has_shared_memory = true;
    for (auto [camel, snake, target] :
         {std::tuple{"mountPath", "mount_path", &out->mount_path},
          std::tuple{"mountName", "mount_name", &out->mount_name},
          std::tuple{"sizeLimit", "size_limit", &out->size_limit}}) {
      Result<std::string> v = String(*shm, camel, snake, std::string("extendedResources.sharedMemory.") + camel);
      if (!v.ok()) return v.take_error();
      *target = *v;
    }
  }
  return Ok();
}

doc::Node Toleration(const std::string& key, const std::string& value) {
  doc::Node t = doc::Node::Mapping();
  t.Set("key", doc::Node::String(key));
  t.Set("operator", doc::Node::String("Equal"));
  t.Set("value", doc::Node::String(value));
  t.Set("effect", doc::Node::String("NoSchedule"));
  return t;
}

doc::Node Requirement(const std::string& key, const char* op, const std::string* value) {
  doc::Node r = doc::Node::Mapping();
  r.Set("key", doc::Node::String(key));
  r.Set("operator", doc::Node::String(op));
  if (value != nullptr) r.Set("values", Sequence({doc::Node::String(*value)}));
  return r;
}

// ApplyGPUNodeSelectors (pod_helper.go:190-272).
void ApplyGpu(const ExtendedResources& r, const PluginConfig& config, doc::Node* spec, bool dedupe) {
  bool requires_gpus = false;
  for (const doc::Node& c : Items(*spec, "containers")) {
    const doc::Node* resources = c.Find("resources");
    const doc::Node* limits = resources != nullptr ? resources->Find("limits") : nullptr;
    if (limits != nullptr && limits->Find(config.gpu_resource_name) != nullptr) requires_gpus = true;
  }
  if (!requires_gpus) return;
  doc::Node* affinity = spec->FindMutable("affinity");
  if (IsNil(affinity)) affinity = &spec->Set("affinity", doc::Node::Mapping());
  std::vector<doc::Node> tolerations = Items(*spec, "tolerations");
  // Flyte 2 does not add a toleration the pod already has.
  auto add = [&](const doc::Node& t) {
    if (dedupe && std::find(tolerations.begin(), tolerations.end(), t) != tolerations.end()) return;
    tolerations.push_back(t);
  };
  if (!r.device.empty()) {
    AddRequiredNodeSelectorRequirement(affinity, Requirement(config.gpu_device_node_label, "In", &r.device),
                                       dedupe);
    add(Toleration(config.gpu_device_node_label, r.device));
  }
  if (r.unpartitioned) {
    AddRequiredNodeSelectorRequirement(
        affinity,
        config.gpu_unpartitioned_node_selector_requirement.is_null()
            ? Requirement(config.gpu_partition_size_node_label, "DoesNotExist", nullptr)
            : config.gpu_unpartitioned_node_selector_requirement,
        dedupe);
    if (!config.gpu_unpartitioned_toleration.is_null()) {
      add(config.gpu_unpartitioned_toleration);
    }
  } else if (r.has_partition_size) {
    AddRequiredNodeSelectorRequirement(
        affinity, Requirement(config.gpu_partition_size_node_label, "In", &r.partition_size), dedupe);
    add(Toleration(config.gpu_partition_size_node_label, r.partition_size));
  }
  if (!tolerations.empty()) spec->Set("tolerations", Sequence(tolerations));
}

// ApplySharedMemory (pod_helper.go:134-188).
Status ApplySharedMemory(const ExtendedResources& r, const std::string& primary, doc::Node* spec,
                         const Location& at) {
  auto fail = [&](std::string message) { return MakeError(at, "extendedResources.sharedMemory", std::move(message)); };
  if (r.mount_name.empty()) return fail("mount name is not set");
  if (r.mount_path.empty()) return fail("mount path is not set");
  std::vector<doc::Node> containers = Items(*spec, "containers");
  doc::Node* container = nullptr;
  for (doc::Node& c : containers) {
    if (NameOf(c) == primary) container = &c;
  }
  if (container == nullptr) return fail("Unable to find primary container");
  for (const doc::Node& volume : Items(*spec, "volumes")) {
    if (NameOf(volume) == r.mount_name) return fail("A volume is already named " + r.mount_name + " in pod spec");
  }
  std::vector<doc::Node> mounts = Items(*container, "volumeMounts");
  for (const doc::Node& mount : mounts) {
    if (NameOf(mount) == r.mount_name) return fail("A volume is already named " + r.mount_name + " in container");
    const doc::Node* path = mount.Find("mountPath");
    if (path != nullptr && path->is_string() && path->string_value() == r.mount_path) {
      return fail(r.mount_path + " is already mounted in container");
    }
  }
  // An empty size_limit leaves Go's zero Quantity, which still prints "0".
  std::string size = "0";
  if (!r.size_limit.empty()) {
    Result<typed::Quantity> q = typed::Quantity::Parse(r.size_limit);
    if (!q.ok()) return fail("Unable to parse size limit: " + q.error().message);
    size = r.size_limit;
  }
  doc::Node empty_dir = doc::Node::Mapping();
  empty_dir.Set("medium", doc::Node::String("Memory"));
  empty_dir.Set("sizeLimit", doc::Node::String(size));
  doc::Node volume = doc::Node::Mapping();
  volume.Set("name", doc::Node::String(r.mount_name));
  volume.Set("emptyDir", std::move(empty_dir));
  std::vector<doc::Node> volumes = Items(*spec, "volumes");
  volumes.push_back(std::move(volume));
  spec->Set("volumes", Sequence(volumes));
  doc::Node mount = doc::Node::Mapping();
  mount.Set("name", doc::Node::String(r.mount_name));
  mount.Set("mountPath", doc::Node::String(r.mount_path));
  mounts.push_back(std::move(mount));
  container->Set("volumeMounts", Sequence(mounts));
  spec->Set("containers", Sequence(containers));
  return Ok();
}

}  // namespace

Result<ExtendedResources> ReadExtendedResources(const doc::Node* base, const doc::Node* overrides) {
  ExtendedResources out;
  for (const doc::Node* part : {base, overrides}) {
    if (part == nullptr) continue;
    if (Status s = ReadPart(*part, &out); !s.ok()) return s.take_error();
  }
  return out;
}

Status ApplyExtendedResources(const ExtendedResources& resources, const PluginConfig& config,
                              const std::string& primary, doc::Node* spec, bool dedupe) {
  if (resources.has_gpu_accelerator) ApplyGpu(resources, config, spec, dedupe);
  if (resources.has_shared_memory) {
    return ApplySharedMemory(resources, primary, spec, spec->location());
  }
  return Ok();
}

}  // namespace tjr::flyte
