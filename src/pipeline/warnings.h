#pragma once

#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::pipeline {

/// Rules beyond upstream: results the Trainer controller accepts but that
/// fail when the JobSet's Jobs create pods, or that surprise. Each finding
/// is a warning whose message starts with "[<rule>] ".
inline constexpr std::string_view kRuleUnknownContainer = "override-container-unknown";
inline constexpr std::string_view kRuleContainerImageMissing = "container-image-missing";
inline constexpr std::string_view kRuleVolumeTwoSources = "volume-two-sources";
inline constexpr std::string_view kRuleEnvValueAndValueFrom = "env-value-and-valuefrom";
inline constexpr std::string_view kRuleMountWithoutVolume = "volume-mount-without-volume";
inline constexpr std::string_view kRuleNumNodesZero = "num-nodes-zero";

/// Checks the pod templates of the rendered JobSet in `objects` against the
/// TrainJob as written (`trainjob`) and the runtime it uses (`runtime`, as
/// stored), both for locations:
///  - override-container-unknown: a container or init container with no
///    image that an override names and the runtime's job does not have (the
///    merge added it);
///  - container-image-missing: a container or init container of the
///    runtime's job that has no image after the merge;
///  - volume-two-sources: a volume with more than one source (the override
///    and runtime volumes of one name were merged field by field);
///  - env-value-and-valuefrom: an env var with a non-empty `value` and a
///    `valueFrom`;
///  - volume-mount-without-volume: a volumeMount naming no volume of the
///    pod, located at that volumeMount in the override or the runtime;
///  - num-nodes-zero: the trainer job's parallelism is 0 (numNodes: 0), so
///    its pods never run.
/// "Override" means a podTemplateOverrides entry (v2.1) or a runtimePatches
/// pod template patch (v2.2+). Findings point at the override entry
/// responsible when there is one, else at the runtime's node, else at the
/// TrainJob; they are in JobSet order.
Diagnostics CheckRendered(const doc::Node& trainjob, const doc::Node& runtime, const std::vector<doc::Node>& objects);

}  // namespace tjr::pipeline
