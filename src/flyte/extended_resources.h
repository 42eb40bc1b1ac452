#pragma once

#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"

// TaskTemplate.extended_resources (GPU accelerator, shared memory), applied
// after the template merge (reference flyte-podtemplate.md §1.3 step H;
// pod_helper.go:134-272 at v1.16.8).
namespace tjr::flyte {

struct ExtendedResources {
  bool has_gpu_accelerator = false;
  std::string device;
  bool unpartitioned = false;      ///< the partition_size_value oneof holds `unpartitioned`
  bool has_partition_size = false;  ///< ... or `partition_size`
  std::string partition_size;
  bool has_shared_memory = false;
  std::string mount_path, mount_name, size_limit;
};

/// Reads a flyteidl ExtendedResources message; `overrides` (the node's)
/// replaces each of its two parts when set (applyExtendedResourcesOverrides).
Result<ExtendedResources> ReadExtendedResources(const doc::Node* base, const doc::Node* overrides);

/// ApplyGPUNodeSelectors, then ApplySharedMemory, on the merged pod spec.
/// Errors are upstream's ("A volume is already named dshm in pod spec", ...).
Status ApplyExtendedResources(const ExtendedResources& resources, const PluginConfig& config,
                              const std::string& primary, doc::Node* spec, bool dedupe);

}  // namespace tjr::flyte
