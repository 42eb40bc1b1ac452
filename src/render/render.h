#pragma once

#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "render/version.h"

namespace tjr::render {

/// Options of a render.
struct RenderOptions {
  /// The Trainer release whose controller is emulated.
  TrainerVersion version = TrainerVersion::kV2_1;
  /// MergeJobSetTemplate(trainjob, runtime spec.template.spec, version) when
  /// the caller has it already (the pipeline shares one merge between
  /// validation and rendering); nullptr merges here.
  const doc::Node* merged_jobset_spec = nullptr;
};

/// What the Trainer v2.1.0 controller would apply for one TrainJob.
struct RenderedObjects {
  /// In a fixed order (see Render): coscheduling PodGroup, volcano PodGroup,
  /// MPI hostfile ConfigMap, JobSet. Each object's keys follow the JSON of
  /// its apply configuration (kind, apiVersion, metadata, spec/data).
  std::vector<doc::Node> objects;
  /// Notes for the user, e.g. the MPI SSH Secret that is not rendered.
  Diagnostics notes;
};

/// Renders `trainjob` against `runtime` ((Cluster)TrainingRuntime), both
/// already API-defaulted, as the controller's NewObjects does (spec §1):
/// newRuntimeInfo (labels, podTemplateOverrides, typed JobSetSpec, PodSets),
/// then the plugins phase by phase. Upstream runs a phase's plugins in Go
/// map order; the content does not depend on it (every plugin is gated on
/// its own policy), and this renderer uses the registry's source order:
///   EnforceMLPolicy:       PlainML, Torch, MPI
///   EnforcePodGroupPolicy: CoScheduling, Volcano
///   PodNetwork:            JobSet
///   ComponentBuilder:      CoScheduling, Volcano, MPI, JobSet
/// The last fixes the order of `objects`.
///
/// Not rendered: the MPI SSH Secret `<name>-mpi-ssh-auth` (a fresh random
/// P-521 key upstream); a note says so. The owner reference carries `uid`
/// only when the TrainJob manifest has one, and objects carry `namespace`
/// only when the TrainJob does.
Result<RenderedObjects> Render(const doc::Node& trainjob, const doc::Node& runtime, const RenderOptions& options);

}  // namespace tjr::render
