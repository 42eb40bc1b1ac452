#pragma once

#include <string_view>

namespace tjr::render {

/// The Trainer release whose controller is emulated. The differences that
/// change rendered objects (README "Targets"):
///  - kV2_1: podTemplateOverrides and spec.labels/annotations (Kubernetes
///    1.34, JobSet v0.10.1);
///  - kV2_2: runtimePatches, each replicatedJob patch merged into the
///    matching JobTemplateSpec only (Kubernetes 1.35, JobSet v0.11.1, typed
///    with v0.12.0's identical JobSetSpec fields);
///  - kV2_3: runtimePatches merged into the whole JobSetSpec, replicated jobs
///    re-sorted, resourcesPerNode merged per key, parallelism/completions
///    from the PodSet count, new plugins (Kubernetes 1.36, JobSet v0.12.0).
enum class TrainerVersion { kV2_1, kV2_2, kV2_3 };

/// True from Trainer v2.2.0 on: runtimePatches replace podTemplateOverrides.
constexpr bool HasRuntimePatches(TrainerVersion v) { return v != TrainerVersion::kV2_1; }

/// "v2.1.0", "v2.2.0", "v2.3.0": the upstream tag.
std::string_view VersionTag(TrainerVersion v);

}  // namespace tjr::render
