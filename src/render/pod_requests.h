#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "render/quantity_math.h"

namespace tjr::render {

/// k8s.io/component-helpers v0.34.1 resource.PodRequests with default
/// options, on a pod spec in typed JSON form: the containers' requests
/// summed; each init container's requests (plus the sidecars started
/// before it) folded in by maximum, sidecars (restartPolicy Always) also
/// added to the sum; supported pod-level requests (cpu, memory) replace the
/// aggregate when spec.resources sets requests; spec.overhead is added.
Result<ResourceList> PodRequests(const doc::Node& pod_spec);

}  // namespace tjr::render
