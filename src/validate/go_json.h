#pragma once

#include <string>
#include <string_view>

#include "doc/node.h"
#include "trainer/release.h"

// The JSON that the Trainer webhook's json.Marshal prints for the values it
// puts into field errors: each value goes through a typed round trip into
// the release's Go type (trainer::ReleaseSchema: Trainer's own types from
// policies/trainer-<tag>.json, core/v1 and meta/v1 from its Kubernetes set),
// which orders the fields, applies omitempty and canonicalises quantities.
// Inputs are API-server-stored TrainJob fields, decoded case-sensitively;
// `null` counts as absent, as it does for a Go pointer, slice or map.
namespace tjr::validate {

/// encoding/json text of `value`, keeping mapping order as given (a mapping
/// stands for a struct already in field order, or a map already sorted).
std::string WriteOrdered(const doc::Node& value);

/// trainer.RuntimeRef: name, apiGroup, kind (all omitempty).
std::string RuntimeRefJson(const doc::Node* runtime_ref, trainer::TrainerVersion version);

/// []trainer.PodTemplateOverride (v2.1.0).
std::string PodTemplateOverridesJson(const doc::Node& overrides, trainer::TrainerVersion version);

/// []corev1.EnvVar.
std::string EnvListJson(const doc::Node& env, trainer::TrainerVersion version);

/// *corev1.ResourceRequirements: "null" when absent.
std::string ResourcesJson(const doc::Node* resources, trainer::TrainerVersion version);

/// intstr.IntOrString: a number or a JSON string.
std::string IntOrStringJson(const doc::Node& value);

/// []corev1.Container.
std::string ContainersJson(const doc::Node& containers, trainer::TrainerVersion version);

/// One value of a Go type of the release, typed-round-tripped into Go field
/// order; the value unchanged when the release has no such type or the
/// value does not decode. `type_name` is fully qualified
/// ("k8s.io/api/core/v1.EnvVar").
doc::Node Typed(const doc::Node& value, std::string_view type_name, trainer::TrainerVersion version);

}  // namespace tjr::validate
