#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"

// Kubernetes values in the form Flyte's Go code holds them: decoded into the
// k8s.io/api/core/v1 type and encoded again (Kubernetes 1.34 types).
namespace tjr::flyte {

/// The core/v1 type `name` ("PodSpec", "Container"), or ObjectMeta for
/// "ObjectMeta"; nullptr when the built-in schema lacks it.
const schema::Type* CoreType(std::string_view name);

/// `value` decoded into the core/v1 type `go_type` and encoded again, as
/// json.Unmarshal + json.Marshal do (unknown fields dropped, zero values
/// omitted where the type says omitempty). "[]T" decodes a list of T.
Result<doc::Node> ToGoForm(const doc::Node& value, std::string_view go_type);

}  // namespace tjr::flyte
