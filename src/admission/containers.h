#pragma once

#include <map>
#include <string>

#include "admission/object_errors.h"
#include "admission/pod.h"
#include "admission/releases.h"
#include "doc/node.h"

// Core validation of a pod's containers and init containers
// (validateContainers, validateInitContainers and what they call in
// pkg/apis/core/validation/validation.go): names, images, ports, env,
// resources, probes, lifecycle, security context, volume mounts.
namespace tjr::admission {

/// The pod's volumes by name, as ValidateVolumes returns them (the node of
/// each volume), for the volume mounts' checks.
using PodVolumes = std::map<std::string, const doc::Node*>;

/// validateContainers of `spec.containers` then validateInitContainers of
/// `spec.initContainers`, as ValidatePodSpec calls them; `spec_path` names
/// the pod spec.
void ValidateContainerLists(const doc::Node& spec, const PodVolumes& volumes, const Path& spec_path, PodOwner owner,
                            const KubernetesRules& rules, ObjectErrors* errors);

}  // namespace tjr::admission
