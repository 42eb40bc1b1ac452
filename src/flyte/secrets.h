#pragma once

// The metadata flytepropeller adds to every Pod of a k8s plugin task before
// the plugin builds it (newTaskExecutionMetadata,
// flytepropeller/pkg/controller/nodes/task/k8s/task_exec_context.go:47-73 at
// v1.16.8): the task's secret requests as annotations, the label that makes
// Flyte's pod webhook inject them, and the execution identity label.

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"
#include "flyte/task.h"

namespace tjr::flyte {

/// TaskTemplate.securityContext.secrets, in flyteidl's JSON or proto field
/// names; mountRequirement by enum name or number.
Result<std::vector<Secret>> ParseSecrets(const doc::Node& task_template);

/// One secret as flyteplugins' secrets.marshalSecret writes it
/// (utils/secrets/marshaler.go:24-40): golang/protobuf v1.5.4's
/// MarshalTextString (proto/text_encode.go: fields in declaration order,
/// zero values left out, strings quoted with C escapes and octal for bytes
/// outside printable ASCII) in base32 with the alphabet a-z1-6, unpadded.
std::string MarshalSecret(const Secret& secret);

/// MarshalSecretsToMapStrings (marshaler.go:53-69): `flyte.secrets/s<N>`
/// per secret. Errors: a mount requirement that is not ANY, ENV_VAR or
/// FILE; an encoded secret over 256 KiB.
Result<StringMap> SecretAnnotations(const std::vector<Secret>& secrets);

/// The labels and annotations newTaskExecutionMetadata gives the plugin.
struct TaskExecutionMetadata {
  StringMap labels, annotations;
};

/// newTaskExecutionMetadata: the task's secret annotations over the
/// execution's annotations; `inject-flyte-secrets: "true"` (when the task
/// requests secrets) and `execution-identity` (the execution's
/// runAs.executionIdentity, sanitized, when set and `identity_label`) over
/// its labels. Errors
/// are SecretAnnotations'; upstream then creates no Pod.
Result<TaskExecutionMetadata> WrapTaskExecutionMetadata(const Task& task, bool identity_label);

/// flytepropeller's SanitizeLabelValue (pkg/utils/k8s.go:103-111):
/// lower-cased, runs of characters outside [-a-z0-9] made "-", cut to 63
/// bytes, then "-" trimmed from both ends.
std::string SanitizeLabelValue(std::string_view value);

}  // namespace tjr::flyte
