#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"
#include "typed/go_value.h"

namespace tjr::typed {

/// How a decoder other than the standard library's differs, and where the
/// value sits in a larger document (for the error text only).
struct UnmarshalOptions {
  /// sigs.k8s.io/json (apimachinery's serializers): keys match field names
  /// exactly; other keys are unknown fields. The standard library also
  /// matches them case-insensitively.
  bool case_sensitive = false;
  /// The value is decoded as a field of a larger struct: that struct's
  /// qualified Go type name, and the JSON field names from the outer root to
  /// the value, which every error's "Go struct field" text starts with.
  std::string_view outer_struct;
  std::vector<std::string_view> outer_fields;
};

/// json.Unmarshal(json.Marshal(value), &v) for a fresh v of `type`, as Go
/// 1.24's encoding/json and the API types' own UnmarshalJSON methods do it:
///
/// * object keys are visited in json.Marshal's (sorted) order and matched
///   to fields exactly, else case-insensitively; unknown keys are dropped;
/// * null leaves non-pointer structs and scalars alone and nils pointers,
///   slices and maps, but is handed to custom types (Quantity, Time, ...);
/// * decoding into an existing value merges structs, reuses slice elements
///   and keeps map entries, as happens when two keys match one field;
/// * a value of the wrong JSON type is skipped and the first such
///   UnmarshalTypeError is returned at the end, unless an error from a
///   custom UnmarshalJSON (a bad quantity, a bad time) stops decoding first.
///
/// Returns that error, with Go's message, the location of the offending
/// value and its field path; `out` is then unspecified.
std::optional<Diagnostic> Unmarshal(const doc::Node& json, const schema::Type& type, GoValue* out);

/// Unmarshal as `options` describe the decoder and the value's place. The
/// field path of an error is relative to `json`.
std::optional<Diagnostic> Unmarshal(const doc::Node& json, const schema::Type& type,
                                    const UnmarshalOptions& options, GoValue* out);

/// Unmarshal where `typed_base` is an earlier Marshal(Unmarshal(...)) of
/// `type` that `json` was made from copy-on-write (a strategic merge onto
/// it, say). A struct, slice or map of `json` that shares its
/// representation with the node at the same place in `typed_base` is its
/// own round trip (the round trip is idempotent), so it is kept as a
/// GoVerbatim instead of being decoded; Marshal writes it back as it is.
/// Only non-pointer positions without omitzero are kept so, where whether
/// the value is omitted can be read off the node.
std::optional<Diagnostic> Unmarshal(const doc::Node& json, const schema::Type& type,
                                    const doc::Node& typed_base, GoValue* out);

}  // namespace tjr::typed
