#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"

namespace tjr::render {

/// typed::TypedRoundTrip, remembered per thread for the last few inputs.
///
/// Every TrainJob of a runtime starts from the same runtime template, which
/// the copy-on-write document model shares between them: one representation,
/// so identity is a cheap and exact cache key. The cache holds a handle to
/// each input it remembers, so a remembered representation can be neither
/// freed (and its address reused) nor changed in place while it is a key.
Result<doc::Node> TypedRoundTripMemo(const doc::Node& value, const schema::Type& type);

}  // namespace tjr::render
