#pragma once

#include <string>
#include <string_view>

#include "doc/node.h"

// The JSON that the Trainer v2.1.0 webhook's json.Marshal prints for the
// values it puts into field errors. Trainer's own types are not in the
// built-in schema, so their struct field order is spelled out here
// (trainjob_types.go at v2.1.0); the core/v1 values inside them go through
// the typed round trip, which orders their fields and canonicalises
// quantities. Inputs are API-server-stored TrainJob fields; `null` counts as
// absent, as it does for a Go pointer, slice or map.
namespace tjr::validate {

/// encoding/json text of `value`, keeping mapping order as given (a mapping
/// stands for a struct already in field order, or a map already sorted).
std::string WriteOrdered(const doc::Node& value);

/// trainer.RuntimeRef: name, apiGroup, kind (all omitempty).
std::string RuntimeRefJson(const doc::Node* runtime_ref);

/// []trainer.PodTemplateOverride.
std::string PodTemplateOverridesJson(const doc::Node& overrides);

/// []corev1.EnvVar.
std::string EnvListJson(const doc::Node& env);

/// *corev1.ResourceRequirements: "null" when absent.
std::string ResourcesJson(const doc::Node* resources);

/// intstr.IntOrString: a number or a JSON string.
std::string IntOrStringJson(const doc::Node& value);

/// []corev1.Container.
std::string ContainersJson(const doc::Node& containers);

/// One value of a core/v1 (or meta/v1) type, typed-round-tripped into Go
/// field order; the value unchanged when the type is unknown or the value
/// does not decode. `type_name` is fully qualified
/// ("k8s.io/api/core/v1.EnvVar").
doc::Node Typed(const doc::Node& value, std::string_view type_name);

}  // namespace tjr::validate
