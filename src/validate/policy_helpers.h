#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "doc/node.h"
#include "validate/rules.h"

// What the ML-policy plugins' Validate of every Trainer release reads,
// shared by policy_rules.cc (v2.1.0) and policy_rules_v2.cc (v2.2.0+).
namespace tjr::validate {

/// spec.trainer of the TrainJob, or nullptr.
const doc::Node* Trainer(const WebhookInfo& info);
/// resource.Quantity.Value(): the amount rounded up to an integer.
std::int64_t CeilValue(const doc::Node& quantity);
/// numGPU: the first resource whose name contains "gpu" (any case), in key order.
int NumGpu(const doc::Node* list);
/// GetNumGPUPerNode: requests, else limits.
int GpuPerNode(const doc::Node* resources);
/// ExtractResourcePerNodeFromRuntime on the merged template.
const doc::Node* RuntimeResources(const WebhookInfo& info, bool* found);
/// getModelFromRuntimeRef: "torchtune-llama3.2-1b" -> "llama3_2/1B".
std::string ModelOf(const std::string& runtime_name);
/// Whether some string arg contains `needle`.
bool AnyArgContains(const doc::Node* args, std::string_view needle);

}  // namespace tjr::validate
