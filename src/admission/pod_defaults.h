#pragma once

#include <string_view>

#include "doc/node.h"

// The core defaults of a pod template's spec, as the API server applies
// them to the template of a workload it decodes (the generated
// SetObjectDefaults_* of pkg/apis/core/v1 and pkg/apis/batch/v1 calling
// pkg/apis/core/v1/defaults.go): SetDefaults_PodSpec, the volumes', the
// containers' (SetDefaults_Container, ports, env, probes, lifecycle
// handlers). Not SetDefaults_Pod (requests from limits, enableServiceLinks,
// resize policies), which only Pods get.
namespace tjr::admission {

/// Defaults the pod spec `spec` (a mapping) in place: values already
/// written keep their nodes and locations; a defaulted value has none,
/// except where it replaces a written zero value (`dnsPolicy: ""`), whose
/// location it keeps.
void DefaultPodTemplateSpec(doc::Node* spec);

/// SetDefaults_Container's imagePullPolicy for `image`: "Always" when
/// parsers.ParseImageName gives the tag "latest" (written, or implied by
/// a reference with neither tag nor digest), else "IfNotPresent".
std::string_view DefaultPullPolicy(std::string_view image);

}  // namespace tjr::admission
