#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"

// How the TrainJob's typed patch fields (PodTemplateSpecOverride of v2.1,
// the RuntimePatch types of v2.2+) hold what the manifest says: each value
// decoded into its Go field type and encoded again, with encoding/json's
// omitempty rules. Both patch reducers build their patch from these.
namespace tjr::render {

/// `value` decoded into the Go type of `owner`'s field `field` and encoded
/// again: what the typed field holds.
Result<doc::Node> TypedField(const doc::Node& value, const schema::Type& owner, std::string_view field);

/// A slice or map field with omitempty: `from[key]`, typed, into `to`;
/// left out when null or empty.
Status CopyOmitEmpty(const doc::Node& from, std::string_view key, const schema::Type& owner, doc::Node* to);

/// A pointer field with omitempty: left out only when null (an explicit
/// "" or {} survives).
Status CopyPointer(const doc::Node& from, std::string_view key, const schema::Type& owner, doc::Node* to);

/// A `name` string with omitempty.
void CopyName(const doc::Node& from, doc::Node* to);

}  // namespace tjr::render
