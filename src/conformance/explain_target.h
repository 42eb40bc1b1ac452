#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "conformance/case.h"
#include "conformance/target.h"

namespace tjr::conformance {

/// The `explain` target: input/ read as a repository, as the `render`
/// target does, and the provenance of chosen fields of one TrainJob's (or
/// Flyte task's) rendered objects, as `tjrender explain SUBJECT --field
/// PATH` shows it. Command: `--subject NAMESPACE/NAME`, one `--field PATH`
/// or more (the field itself, not those below it), and the render target's
/// options (--target, --namespace, --flyte-config, --no-admission). Each
/// field is one object:
///   apiVersion: tjrender.dev/v1
///   kind: FieldProvenance
///   metadata: {name: "JobSet ml/llama spec.replicatedJobs[name=node]..."}
///   present: true
///   order: "..."            (list items only)
///   chain: [{layer, kind, action, value, location, detail}]
/// A field no rendered object has is an error diagnostic.
Result<TargetOutput> RunExplainTarget(const std::vector<InputFile>& inputs, const std::vector<std::string>& command);

}  // namespace tjr::conformance
