#pragma once

#include <optional>

#include "doc/node.h"

namespace tjr::trainer {

/// What an inventory needs of a TrainJob, and nothing else: apiVersion,
/// kind, metadata and spec.runtimeRef, with their locations. Nullopt for
/// any other object. A loader keeps this in place of a TrainJob it will
/// read again when rendering (source::LoadOptions::release), so memory does
/// not grow with the TrainJobs' specs.
std::optional<doc::Node> TrainJobSkeleton(const doc::Node& object);

/// What a skeleton drops of `spec`: every key but runtimeRef (for
/// source::LoadOptions::release_prune_key and release_prune_keep).
inline constexpr char kSkeletonPrunedKey[] = "spec";
inline constexpr char kSkeletonKeptKey[] = "runtimeRef";

}  // namespace tjr::trainer
