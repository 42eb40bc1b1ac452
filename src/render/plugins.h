#pragma once

#include <cstddef>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "render/info.h"

namespace tjr::render {

// The framework plugins of Trainer v2.1.0 (spec §1.4-§1.6), one file each.
// `trainjob` is API-defaulted, with trainer/initializer env and
// resourcesPerNode already in typed form (see render.cc). Each plugin gates
// itself on the runtime policy exactly as upstream does.

/// PlainML EnforceMLPolicy (§1.5.1): runs when the runtime has neither
/// torch nor mpi (nor, from v2.2.0, jax).
void EnforcePlainML(Info* info, const doc::Node& trainjob);

/// Torch EnforceMLPolicy (§1.5.2). May rewrite `spec.trainer.command` of
/// `*trainjob` (TorchTune), as upstream mutates the TrainJob in memory.
Status EnforceTorch(Info* info, doc::Node* trainjob);

/// MPI EnforceMLPolicy (§1.5.3); updates info->ml_policy.mpi.numProcPerNode.
Status EnforceMPI(Info* info, const doc::Node& trainjob);
/// The API server's limit on a ConfigMap's keys and values together
/// (core.MaxSecretSize, which ValidateConfigMap applies).
inline constexpr std::size_t kMaxConfigMapBytes = 1024 * 1024;
/// The error rule of a hostfile over that limit.
inline constexpr char kRuleMpiHostfileTooLarge[] = "mpi-hostfile-too-large";

/// MPI Build: the hostfile ConfigMap (the SSH Secret is random and not
/// rendered). Null node when the runtime has no mpi policy; an error when
/// the hosts would not fit in a ConfigMap.
Result<doc::Node> BuildMPIHostfile(const Info& info, const doc::Node& trainjob);

/// JAX EnforceMLPolicy (v2.2.0+): JAX_* envs and the trainer port.
void EnforceJAX(Info* info, const doc::Node& trainjob);

/// XGBoost EnforceMLPolicy (v2.2.0+): DMLC_* envs and the trainer port.
Status EnforceXGBoost(Info* info, const doc::Node& trainjob);

/// Flux EnforceMLPolicy (v2.2.0+): installer init container, volumes and
/// mounts on the `node` PodSet; rewrites `spec.trainer.command` of
/// `*trainjob` to the entrypoint wrapper and drops its args, as upstream
/// mutates the TrainJob in memory. An error where the controller panics
/// (spec.trainer, numNodes or numProcPerNode unset).
Status EnforceFlux(Info* info, doc::Node* trainjob);
/// Flux Build: the `<name>-flux-entrypoint` ConfigMap with entrypoint.sh and
/// init.sh (the CURVE Secret, keyed from the TrainJob UID, is not rendered).
/// Null node when the runtime has no flux policy.
Result<doc::Node> BuildFluxConfigMap(const Info& info, const doc::Node& trainjob);

/// CoScheduling EnforcePodGroupPolicy and Build (§1.5.4).
void EnforceCoScheduling(Info* info, const doc::Node& trainjob);
doc::Node BuildCoSchedulingPodGroup(const Info& info, const doc::Node& trainjob);

/// Volcano EnforcePodGroupPolicy and Build (§1.5.5).
void EnforceVolcano(Info* info, const doc::Node& trainjob);
doc::Node BuildVolcanoPodGroup(const Info& info, const doc::Node& trainjob);

/// JobSet IdentifyPodNetwork (§1.5.6): PodSet endpoints.
void IdentifyPodNetwork(Info* info, const doc::Node& trainjob);
/// JobSet Build (§1.5.6): the JobSet object.
doc::Node BuildJobSet(const Info& info, const doc::Node& trainjob);

// Shared by the builders.

/// metadata {name, namespace?} of an object named after the TrainJob;
/// namespace only when the TrainJob has one.
doc::Node ObjectMetaFor(const doc::Node& trainjob, std::string name);
/// [{apiVersion, kind, name, uid?, controller, blockOwnerDeletion}] pointing
/// at the TrainJob; uid only when the TrainJob manifest has one.
doc::Node OwnerReferences(const doc::Node& trainjob);
/// {kind, apiVersion, metadata, ...} skeleton in apply-configuration order.
doc::Node ObjectSkeleton(std::string_view api_version, std::string_view kind, doc::Node metadata);
/// An object the controller creates beside the JobSet: skeleton with
/// metadata {name, namespace?, ownerReferences} (see the three above).
doc::Node OwnedObject(const doc::Node& trainjob, std::string_view api_version, std::string_view kind,
                      std::string name);
/// The runtime's podGroupPolicy.<name> (coscheduling, volcano), or nullptr.
const doc::Node* PodGroupPolicy(const Info& info, std::string_view name);
/// The Σ count and Σ SinglePodRequests×count over all PodSets.
void PodGroupTotals(const Info& info, std::int64_t* members, ResourceList* resources);
/// A StringMap as a mapping node (sorted keys).
doc::Node StringMapNode(const StringMap& map);

}  // namespace tjr::render
