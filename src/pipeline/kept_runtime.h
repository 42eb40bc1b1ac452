#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "pipeline/target.h"
#include "trainer/runtime_ref.h"

namespace tjr::pipeline {

/// The runtime an existing TrainJob's controller reads: its snapshot
/// ConfigMap as the cluster holds it, checked and decoded as getRuntimeSnapshot
/// does (pkg/runtime/core/snapshot.go:38-95), or null when it holds the live
/// runtime's own text. A kept snapshot that differs from the live runtime is
/// a runtime-snapshot-kept warning at the TrainJob's runtimeRef. Errors carry
/// the text NewObjects returns (trainingruntime.go:93,
/// clustertrainingruntime.go:64); the controller then creates nothing.
/// `live_text_made`: the live runtime's snapshot text when the caller made it
/// already ("": made here).
Result<doc::Node> KeptRuntime(const doc::Node& trainjob, const trainer::ResolvedRuntime& resolved,
                              const doc::Node& configmap, std::string_view live_text_made,
                              const TargetProfile& target, Diagnostics* out);

}  // namespace tjr::pipeline
