#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"

namespace tjr::render {

/// The JobSet as each phase of a render left it, for `tjrender explain`
/// (RenderOptions::trace): what BuildJobSet would make of the runtime info
/// after newRuntimeInfo ("builder"), then after each plugin in the order
/// Render runs them ("plugin torch", ...; a plugin that does not act leaves
/// an equal JobSet), and which component built each rendered object.
struct RenderTrace {
  struct Stage {
    std::string layer;
    doc::Node jobset;
  };
  std::vector<Stage> stages;
  /// Per RenderedObjects::objects entry: "runtime snapshot", "plugin
  /// coscheduling", "plugin volcano", "plugin mpi", "plugin flux", "builder".
  std::vector<std::string> builders;
};

/// Options of a render.
struct RenderOptions {
  /// The Trainer release whose controller is emulated.
  trainer::TrainerVersion version = trainer::kDefaultRelease;
  /// MergeJobSetTemplate(trainjob, runtime spec.template.spec, version) when
  /// the caller has it already (the pipeline shares one merge between
  /// validation and rendering); nullptr merges here.
  const doc::Node* merged_jobset_spec = nullptr;
  /// Render the runtime snapshot ConfigMap first (Trainer v2.3.0+,
  /// render/runtime_snapshot.h): the target profile says.
  bool runtime_snapshot = false;
  /// SnapshotText of the runtime when the caller has it already (it is the
  /// same for every TrainJob of a runtime that names its namespace); ""
  /// makes it here.
  std::string_view runtime_snapshot_text;
  /// Filled when set (explain); nullptr for every other render, which then
  /// builds no stage.
  RenderTrace* trace = nullptr;
};

/// The rule id of the notes about Secrets the controller creates that no
/// offline renderer can (RenderedObjects::notes).
inline constexpr char kSecretNotRenderedRule[] = "secret-not-rendered";

/// What the Trainer controller of the target release would apply for one TrainJob.
struct RenderedObjects {
  /// In a fixed order (see Render): runtime snapshot ConfigMap, coscheduling
  /// PodGroup, volcano PodGroup, MPI hostfile ConfigMap, Flux ConfigMap, JobSet. Each object's keys follow the JSON of
  /// its apply configuration (kind, apiVersion, metadata, spec/data).
  std::vector<doc::Node> objects;
  /// Notes for the user: the MPI SSH and Flux CURVE Secrets that are not
  /// rendered (rule kSecretNotRenderedRule).
  Diagnostics notes;
};

/// Renders `trainjob` against `runtime` ((Cluster)TrainingRuntime), both
/// already API-defaulted, as the controller's NewObjects does (spec §1;
/// runtimepatches spec §2, §5 for v2.2/v2.3): newRuntimeInfo (labels, the
/// patches merge of `options.version`, typed JobSetSpec, PodSets), then the
/// plugins phase by phase. Upstream runs a phase's plugins in Go map order;
/// the content does not depend on it except for PlainML beside XGBoost
/// (v2.2+: env order), and this renderer uses the registry's source order:
///   EnforceMLPolicy:       PlainML, Torch, MPI (v2.2+: then JAX, XGBoost,
///                          Flux)
///   EnforcePodGroupPolicy: CoScheduling, Volcano
///   PodNetwork:            JobSet
///   ComponentBuilder:      CoScheduling, Volcano, MPI, Flux (v2.2+), JobSet
/// The last fixes the order of `objects`.
///
/// Not rendered: the MPI SSH Secret `<name>-mpi-ssh-auth` (a fresh random
/// P-521 key upstream) and the Flux CURVE Secret `<name>-flux-curve` (keyed
/// from the TrainJob's server-assigned UID); notes say so. Under v2.3 a TrainJob whose
/// managedBy is not Trainer's renders nothing (a note says so). The owner
/// reference carries `uid`
/// only when the TrainJob manifest has one, and objects carry `namespace`
/// only when the TrainJob does.
Result<RenderedObjects> Render(const doc::Node& trainjob, const doc::Node& runtime, const RenderOptions& options);

}  // namespace tjr::render
