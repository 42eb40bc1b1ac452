#pragma once

#include "pipeline/pipeline.h"

// Rendered objects meant to be applied to a cluster by something other than
// the Trainer controller (Argo CD, Helm, kpt or Flux in render mode): the
// TrainJob they belong to does not exist there.
namespace tjr::pipeline {

/// Makes `result` applicable on its own:
///  - `metadata.ownerReferences` are removed from every object: they name a
///    TrainJob the cluster does not have, and carry no `uid`, which the API
///    server refuses (`metadata.ownerReferences.uid: Invalid value: "":
///    uid must not be empty`);
///  - the runtime snapshot ConfigMap (v2.3+) is dropped: only the
///    controller reads it, for its TrainJob;
///  - the notes about Secrets the controller creates and tjrender cannot
///    (rule secret-not-rendered) become warnings: nothing will create them,
///    and pods mounting them wait forever.
/// The plain `render` output keeps both, since it documents what the
/// controller creates.
void PrepareForApply(TrainJobResult* result);

/// Removes the runtime snapshot ConfigMap (`<trainjob>-runtime-snapshot`,
/// render/runtime_snapshot.h) from `result`, if it has one.
void RemoveRuntimeSnapshot(TrainJobResult* result);

}  // namespace tjr::pipeline
