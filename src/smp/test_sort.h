#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"

namespace tjr::smp::testing {

/// apimachinery's test helper sortMergeListsByName: sorts every list with
/// the merge strategy (maps by the %v text of their merge key, scalars
/// deduplicated and by %v text) and the $retainKeys and
/// $deleteFromPrimitiveList lists, recursively along the schema. The
/// upstream table tests feed their documents through it before merging.
Result<doc::Node> SortMergeListsByName(const doc::Node& map, const schema::Type& type);

}  // namespace tjr::smp::testing
