#pragma once

#include "explain/explain.h"
#include "flyte/trace.h"

// Where each value of a Flyte task's Pod came from (`tjrender explain
// TASK`): the runtime PodTemplate, the task, propeller's plugins.k8s,
// flyteadmin's task_resources, the execution, or flytepropeller itself.
namespace tjr::explain {

/// The explanation of the Pod a render kept the trace of
/// (FlyteOptions::keep_traces): one object, every node of it with its chain
/// through the steps of ComposePod, and the template values the task's
/// containers do not take (dropped template containers, a list the task
/// lacks) as deleted fields. A node's location names the input that wrote
/// it; a node without one is attributed by the step and the value
/// (plugins.k8s' default env, flyteadmin's limits, propeller's defaults).
/// Subject "task NAMESPACE/NAME", target the Flyte target.
Explanation ExplainFlyteTask(const flyte::TaskTrace& trace);

}  // namespace tjr::explain
