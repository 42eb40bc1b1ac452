#pragma once

// encoding/json's handling of free-form JSON, shared by the decoder: the
// order it visits an object's members in, and the values interface{} and
// json.RawMessage-like fields end up holding.

#include <vector>

#include "doc/node.h"

namespace tjr::typed::detail {

/// The members of a JSON object in json.Marshal's map order (bytewise).
std::vector<const doc::Field*> SortedFields(const doc::Node& object);

/// What an interface{} holds after decoding `json`: numbers become float64,
/// strings and keys valid UTF-8, objects sorted maps.
doc::Node InterfaceValue(const doc::Node& json);

/// Raw JSON kept verbatim (metav1.FieldsV1): as json.Marshal wrote it, which
/// the unstructured value already is, bar UTF-8 repair and key order.
doc::Node RawJsonValue(const doc::Node& json);

}  // namespace tjr::typed::detail
