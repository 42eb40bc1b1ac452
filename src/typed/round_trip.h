#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"
#include "typed/unmarshal.h"

namespace tjr::typed {

/// What the Trainer controller does to a strategic-merge result before it
/// uses it: `json.Unmarshal` into the Go API struct (corev1.PodTemplateSpec,
/// batchv1.JobTemplateSpec, ...) and `json.Marshal` again, with Go 1.24's
/// encoding/json and the apimachinery v0.34.1 types' own JSON methods.
///
/// The controller calls the standard library's encoding/json here, not
/// Kubernetes' case-sensitive decoders, so object keys also match fields
/// case-insensitively ("Name" sets `name`) and unknown keys are dropped
/// silently. The result's mappings list struct fields in Go declaration
/// order; see Unmarshal and Marshal for the details.
///
/// Errors are the ones json.Unmarshal returns, with Go's message (for
/// example "json: cannot unmarshal string into Go struct field
/// ContainerPort.spec.containers.ports.containerPort of type int32" or a
/// quantity parse error), located at the offending value.
Result<doc::Node> TypedRoundTrip(const doc::Node& value, const schema::Type& type);

/// TypedRoundTrip with the decoder `options` describe: case-sensitive for a
/// value as the API server stored it (it prunes keys that are not exactly a
/// field name, so the controller's decoder never sees them).
Result<doc::Node> TypedRoundTrip(const doc::Node& value, const schema::Type& type, const UnmarshalOptions& options);

/// TypedRoundTrip of `value` made copy-on-write from `typed_base`, itself a
/// TypedRoundTrip output of `type` (the controller's typed template before a
/// patch, say): the same result, but the parts `value` still shares with
/// `typed_base` are taken as they are instead of going through Go values.
Result<doc::Node> TypedRoundTrip(const doc::Node& value, const schema::Type& type,
                                 const doc::Node& typed_base);

}  // namespace tjr::typed
