#pragma once

#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// The other objects a TrainJob renders, as the API server validates them.
namespace tjr::admission {

/// ValidateConfigMap (core validation): metadata, data and binaryData keys
/// (config keys), the keys of both disjoint, total size at most 1 MiB.
void ValidateConfigMap(const doc::Node& config_map, const KubernetesRules& rules, ObjectErrors* errors);

/// A PodGroup (scheduler-plugins scheduling.x-k8s.io/v1alpha1 or Volcano
/// scheduling.volcano.sh/v1beta1) as its CRD's schema admits it.
void ValidatePodGroup(const doc::Node& pod_group, ObjectErrors* errors);

}  // namespace tjr::admission
