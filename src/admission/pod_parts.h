#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "admission/containers.h"
#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// The parts of ValidatePodSpec (pkg/apis/core/validation/validation.go at
// the row's tag) and the metav1 label checks they share, one file each;
// every function appends upstream's field errors in upstream's order.
namespace tjr::admission::pod_parts {

// object_meta.cc: apimachinery pkg/util/validation and metav1 validation.
/// IsValidLabelValue: at most 63 characters and the label value regex.
std::vector<std::string> LabelValue(std::string_view value);
/// metav1 ValidateLabelName: IsQualifiedName's messages as Invalid at `path`.
void ValidateLabelName(std::string_view rule, const std::string& name, const Path& path, const doc::Node* at,
                       ObjectErrors* errors);
/// metav1 ValidateLabelSelector with AllowInvalidLabelValueInSelector false.
void ValidateLabelSelector(std::string_view rule, const doc::Node* selector, const Path& path, ObjectErrors* errors);
/// ValidateLabels under `rule` (nodeSelector shares the label checks).
void ValidateLabelMap(std::string_view rule, const doc::Node* labels, const Path& path, ObjectErrors* errors);

// pod_volumes.cc
/// ValidateVolumes: the volumes that passed, by name, for the mounts.
PodVolumes ValidateVolumes(const doc::Node* volumes, const doc::Node* pod_metadata, const Path& path,
                           ObjectErrors* errors);
/// validateLocalDescendingPath: relative and without "..".
void LocalDescendingPath(std::string_view rule, const std::string& target, const Path& path, const doc::Node* at,
                         ObjectErrors* errors);

// pod_scheduling.cc
void ValidateAffinity(const doc::Node* affinity, const Path& path, ObjectErrors* errors);
void ValidateTolerations(const doc::Node* tolerations, const Path& path, ObjectErrors* errors);
void ValidateTopologySpreadConstraints(const doc::Node* constraints, const Path& path, ObjectErrors* errors);

// pod_annotations.cc
/// ValidatePodSpecificAnnotations (the seccomp and AppArmor annotations).
void ValidatePodSpecificAnnotations(const doc::Node* annotations, const doc::Node& spec, const Path& path,
                                    ObjectErrors* errors);

// pod_security.cc
/// validatePodSpecSecurityContext; `spec_path` names the pod spec.
void ValidatePodSecurityContext(const doc::Node& spec, const Path& spec_path, ObjectErrors* errors);
/// validateHostUsers.
void ValidateHostUsers(const doc::Node& spec, const Path& spec_path, ObjectErrors* errors);

}  // namespace tjr::admission::pod_parts
