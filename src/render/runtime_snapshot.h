#pragma once

// Trainer v2.3.0's runtime snapshot: the ConfigMap the controller applies
// for a TrainJob the first time it builds its objects (whenever no snapshot
// exists), and reads instead of the live runtime from then on
// (pkg/runtime/core/snapshot.go, trainingruntime.go:88-113,
// clustertrainingruntime.go:59-83).

#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"

namespace tjr::render {

/// "-runtime-snapshot" (snapshot.go:34).
inline constexpr std::string_view kRuntimeSnapshotSuffix = "-runtime-snapshot";

/// True for the runtime snapshot ConfigMap of TrainJob `trainjob_name`
/// (`v1 ConfigMap <trainjob_name>-runtime-snapshot`).
bool IsRuntimeSnapshotOf(const doc::Node& object, std::string_view trainjob_name);

/// The ConfigMap createRuntimeSnapshot applies (snapshot.go:97-127): `v1
/// ConfigMap` `<trainjob>-runtime-snapshot` in the TrainJob's namespace,
/// owned by the TrainJob (controller, blockOwnerDeletion), no labels or
/// annotations, and one data key, `runtime`: SnapshotText(runtime).
/// `text`, when not empty, is SnapshotText(trainjob, runtime, version)
/// made earlier.
Result<doc::Node> RuntimeSnapshot(const doc::Node& trainjob, const doc::Node& runtime, trainer::TrainerVersion version,
                                  std::string_view text = {});

/// sigs.k8s.io/yaml.Marshal of the runtime as the controller's cache holds
/// it: the stored object (CRD defaults applied), decoded into Trainer's Go
/// types and encoded again (the JobSet template typed, `metadata: {}` where
/// Go always writes it, quantities canonical), with apiVersion and kind.
/// What the API server adds and tjrender cannot know is left out: uid,
/// resourceVersion, generation, creationTimestamp, managedFields (and
/// deletion fields); so is any `kubectl.kubernetes.io/last-applied-
/// configuration` annotation a client-side apply would add. A TrainingRuntime
/// without a namespace gets the TrainJob's (it was found there); a
/// ClusterTrainingRuntime has none.
Result<std::string> SnapshotText(const doc::Node& trainjob, const doc::Node& runtime, trainer::TrainerVersion version);

}  // namespace tjr::render
