#pragma once

#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// Core validation of pod specs (pkg/apis/core/validation/validation.go at
// the row's tag), on a PodSpec as the API server holds it after defaulting.
namespace tjr::admission {

/// Where the pod spec sits: what differs between the template of a Job,
/// the template of a PodTemplate, and a Pod (PodValidationOptions and the
/// callers' extra checks).
enum class PodOwner { kJobTemplate, kPodTemplate, kPod };

/// ValidatePodTemplateSpec: the template's metadata (labels, annotations)
/// and ValidatePodSpec of its spec; `path` names the template
/// ("spec.template"). `tmpl` may be null (absent).
void ValidatePodTemplateSpec(const doc::Node* tmpl, const Path& path, PodOwner owner, const KubernetesRules& rules,
                             ObjectErrors* errors);

/// ValidatePodSpec: volumes, containers, init containers and the pod-level
/// fields, in upstream's order; `metadata` is the pod's (or template's)
/// metadata, `path` names the spec.
void ValidatePodSpec(const doc::Node* spec, const doc::Node* metadata, const Path& path, PodOwner owner,
                     const KubernetesRules& rules, ObjectErrors* errors);

}  // namespace tjr::admission
