#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"
#include "typed/go_value.h"

namespace tjr::typed {

/// json.Marshal of a Go value of `type`, returned as the unstructured value
/// apimachinery's util/json would read back from those bytes:
///
/// * struct fields in Go declaration order (the mapping keeps that order),
///   skipping `omitempty` fields holding "", 0, false, a nil pointer or an
///   empty slice or map, and `omitzero` fields holding their zero value
///   (metav1.Time through its IsZero method); non-pointer structs are never
///   empty, so they print as `{}`;
/// * nil slices, maps, pointers and interfaces as null;
/// * map keys sorted;
/// * Quantity as its String(), IntOrString as a number or string,
///   metav1.Time as RFC 3339 in UTC or null when zero, FieldsV1 verbatim;
/// * numbers whose JSON text is an int64 literal as ints, others as floats.
Result<doc::Node> Marshal(const GoValue& value, const schema::Type& type);

}  // namespace tjr::typed
