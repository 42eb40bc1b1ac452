#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

// What the Trainer controller accepts and then applies to nothing, because
// the runtime lacks the job or container its code looks for. Trainer
// v2.1.0, v2.2.0 and v2.3.0 share each condition (the file:line of each tag
// is at the check), so no release row flag tells them apart.
namespace tjr::pipeline {

/// spec.trainer fields set against a runtime without the job they go to.
inline constexpr std::string_view kRuleTrainerFieldsIgnored = "trainer-fields-ignored";
/// An MPI runtime without the `node` job or `node` container the MPI plugin
/// writes the hostfile from and mounts the SSH keys into.
inline constexpr std::string_view kRuleMpiNodeMissing = "mpi-node-missing";
/// A Torch runtime used by a TrainJob without spec.trainer.
inline constexpr std::string_view kRuleTorchEnvNotInjected = "torch-env-not-injected";

/// trainer-fields-ignored, one warning per field of spec.trainer the
/// controller drops (image, command, args, numNodes, resourcesPerNode,
/// env), at the field; torch-env-not-injected at spec.runtimeRef. `trainjob`
/// is the TrainJob as stored, `runtime` the runtime it renders against.
Diagnostics CheckIgnoredTrainerFields(const doc::Node& trainjob, const doc::Node& runtime);

/// mpi-node-missing for a stored runtime with mlPolicy.mpi: no job the
/// hostfile lists, no job that gets the SSH keys, or a `node`/`launcher`
/// job without a `node` container.
Diagnostics CheckMpiRuntime(const doc::Node& runtime);

}  // namespace tjr::pipeline
