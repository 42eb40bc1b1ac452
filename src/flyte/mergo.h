#pragma once

#include "doc/node.h"
#include "schema/schema.h"

// The merge Flyte uses everywhere it combines pod specs:
// mergo.Merge(dst, src, mergo.WithOverride, mergo.WithAppendSlice) of
// github.com/imdario/mergo v0.3.13, on the Go types the schema describes.
namespace tjr::flyte {

/// Merges `src` into `dst`, both in the form encoding/json gives the Go type
/// `type` (run them through typed::TypedRoundTrip first), by mergo's rules:
///  - every slice appends: dst ++ src (no matching by name or key);
///  - maps: each src key overwrites, even with an empty value;
///  - scalars (string, bool, numbers): src wins only when it is not the zero
///    value, so "", false and 0 never overwrite;
///  - pointers: a nil src keeps dst, a nil dst takes src (even a pointer to
///    false or 0), two set pointers merge their pointees;
///  - structs: field by field.
/// Absent and null mean Go's zero value.
void MergoMerge(doc::Node* dst, const doc::Node& src, const schema::Type& type);

}  // namespace tjr::flyte
