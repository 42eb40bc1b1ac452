#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "conformance/target.h"

namespace tjr::conformance {

/// The `command` of a merge case.
struct MergeCommand {
  /// "v0.10" or "v0.12" (`--jobset-version`); required for JobSet objects
  /// and refused for other kinds, so every case says which JobSet it means.
  std::string jobset_version;
  /// `--typed`: after the merges, the typed round trip the Trainer
  /// controller performs (typed::TypedRoundTrip).
  bool typed = false;
};

/// Parses `--jobset-version v0.10|v0.12` (also `--jobset-version=...`) and `--typed`.
Result<MergeCommand> ParseMergeCommand(const std::vector<std::string>& command);

/// The built-in policy sets that type an object of this apiVersion: JobSet
/// v0.10 is Kubernetes 1.34 with jobset-v0.10.1 (Trainer v2.1.0), JobSet v0.12
/// is Kubernetes 1.36 with jobset-v0.12.0 (Trainer v2.3.0/HEAD); everything
/// else is Kubernetes 1.34.
Result<std::vector<std::string>> MergePolicySets(std::string_view api_version,
                                                 const MergeCommand& command);

/// The `merge` target. Inputs have fixed roles: `input/object.{yaml,yml,json}`
/// holds the one original object; every `input/patch*.{yaml,yml,json}` file,
/// in name order, holds patches, each document applied in turn to the result
/// of the previous one with smp::StrategicMerge, typed by the object's
/// apiVersion/kind. The output is the merged object, or the diagnostic of
/// the first patch that was refused.
Result<TargetOutput> RunMergeTarget(const std::vector<InputFile>& inputs,
                                    const std::vector<std::string>& command);

}  // namespace tjr::conformance
