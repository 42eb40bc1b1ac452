#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/location.h"
#include "doc/node.h"

namespace tjr::yaml::input {

inline constexpr std::string_view kYamlTagPrefix = "tag:yaml.org,2002:";

/// A scalar as goyaml v2 decodes it into interface{}.
struct GoScalar {
  enum class Type : std::uint8_t { kNull, kBool, kInt, kUint, kFloat, kString };
  Type type = Type::kNull;
  bool bool_value = false;
  std::int64_t int_value = 0;
  std::uint64_t uint_value = 0;
  double float_value = 0;
  std::string string_value;
};

/// How the parser reported a scalar.
struct ScalarInput {
  std::string_view value;
  /// The resolved tag ("tag:yaml.org,2002:int", "!foo", "!"), empty if none.
  std::string_view tag;
  bool plain = true;
};

/// Offset of the first escape in the source text of a double-quoted scalar
/// (between its quotes) that libfyaml accepts but goyaml's YAML 1.1 scanner
/// rejects ("\\/"), or npos.
std::size_t FindEscapeUnknownToGoyaml(std::string_view raw);

/// libyaml's `implicit` flag that goyaml consults: a plain scalar without a
/// tag, or any scalar with the non-specific tag "!".
bool IsImplicit(const ScalarInput& scalar);

/// Whether goyaml treats this mapping key as a merge key `<<`.
bool IsMergeKey(const ScalarInput& scalar);

/// goyaml v2's decoding of a scalar into interface{} (resolve.go and
/// decoder.scalar): YAML 1.1 nulls, bools, ints in Go's bases, floats, and
/// strings for the rest (timestamps included). `out` must be fresh
/// (default-constructed). Returns false with goyaml's
/// message in `error` for a tag the value does not fit.
bool ResolveScalar(const ScalarInput& scalar, GoScalar* out, std::string* error);

/// The map key sigs.k8s.io/yaml's convertToJSONableObject makes of a scalar
/// key; false with a message for key types it rejects (null, uint64).
bool ToKeyString(GoScalar&& key, std::string* out, std::string* error);

/// The value Kubernetes ends up with after encoding/json writes the scalar
/// and apimachinery's util/json reads it back: floats that print as
/// integers become ints, uint64 becomes float. False for NaN and
/// infinities, which encoding/json refuses.
bool ToJsonValue(GoScalar&& scalar, Location at, std::string_view source_text, doc::Node* out,
                 std::string* error);

}  // namespace tjr::yaml::input
