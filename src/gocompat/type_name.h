#pragma once

#include <string>
#include <string_view>

// How reflect names the Go types of a schema in error messages. Schema type
// names are fully qualified ("k8s.io/api/core/v1.Container"); Go prints only
// the last element of a package path.
namespace tjr::gocompat {

/// reflect.Type.String(): package paths cut to their last element
/// ("k8s.io/api/core/v1.Container" → "v1.Container",
/// "[]k8s.io/api/core/v1.EnvVar" → "[]v1.EnvVar").
std::string GoTypeString(std::string_view qualified_name);

/// reflect.Type.Name() of a named type ("k8s.io/api/core/v1.Container" →
/// "Container").
std::string_view GoTypeName(std::string_view qualified_name);

}  // namespace tjr::gocompat
