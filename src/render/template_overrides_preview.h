#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::render {

/// EXPERIMENTAL (`--target trainer-pr3199-preview`): the TemplateOverrides
/// API proposed in kubeflow/trainer PR #3199, which no release implements.
///
/// `spec.templateOverrides` is a list keyed by `manager`; each entry holds
/// `job` and `pod` override lists (keyed by `time` in the proposal, applied
/// in list order since entries may only be appended). The proposal does not
/// say how they merge; this preview reads them as Trainer v2.3.0 reads the
/// equivalent runtimePatches, so a proposal renders against real runtimes:
/// each override becomes one RuntimePatch, in manager order and then job
/// overrides before pod overrides (a Job template holds its pod template):
///  - a job override with `targetJobs`: its `metadata` on those jobs'
///    Job templates; without `targetJobs`: its labels and annotations on
///    the JobSet, as the proposal's discussion suggests;
///  - a pod override (`targetJobs` required): its `metadata` and `spec` on
///    those jobs' pod templates.
/// The first override of a manager keeps the manager's name; later ones get
/// `<manager>/2`, `/3`, ... (a RuntimePatch names each job at most once).
/// `spec.templateOverrides` is removed and the patches are appended to any
/// `spec.runtimePatches`. A TrainJob without templateOverrides is returned
/// as given. Shapes the proposal does not allow are errors at their node.
Result<doc::Node> TemplateOverridesAsRuntimePatches(const doc::Node& trainjob);

}  // namespace tjr::render
