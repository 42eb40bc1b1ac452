#pragma once

#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// The batch/v1 Job the JobSet controller creates, as the API server
// defaults (pkg/apis/batch/v1/defaults.go, and the core defaults of its pod
// template, pkg/apis/core/v1/defaults.go) and validates it
// (pkg/apis/batch/validation/validation.go ValidateJob).
namespace tjr::admission {

/// The API server's defaulting of a Job being created, pod template
/// included (protocol TCP, imagePullPolicy, terminationMessagePath, ...;
/// not SetDefaults_Pod's requests from limits, which only Pods get).
void DefaultJob(doc::Node* job, const KubernetesRules& rules);

/// ValidateJob for a create: metadata, selector, spec and its template.
void ValidateJob(const doc::Node& job, const KubernetesRules& rules, ObjectErrors* errors);

}  // namespace tjr::admission
