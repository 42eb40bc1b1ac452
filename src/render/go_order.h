#pragma once

#include "doc/node.h"
#include "schema/schema.h"

namespace tjr::render {

/// Reorders mapping keys as encoding/json writes a value of Go type `type`:
/// struct fields in declaration order (keys the type lacks last, as they
/// were), map keys sorted bytewise. Values are not changed. Used after the
/// plugins have inserted fields, so the output matches the JSON of the
/// apply configuration, whose fields follow the API types' order.
doc::Node OrderAsGo(const doc::Node& node, const schema::Type& type);

}  // namespace tjr::render
