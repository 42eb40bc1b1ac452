#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"

namespace tjr::smp {

/// Applies a strategic merge patch to `original`, exactly as apimachinery's
/// strategicpatch.StrategicMergePatch (v0.34) does for a Go struct of type
/// `type` (PatchMetaFromStruct): per-field patchStrategy and patchMergeKey,
/// null deletes, $patch, $retainKeys, $setElementOrder/, $deleteFromPrimitiveList/
/// and the list order of mergeSlice + normalizeElementOrder. Neither input is
/// modified. Errors carry the patch location and the field path, with the
/// meaning (and as far as possible the words) of the upstream error.
Result<doc::Node> StrategicMerge(const doc::Node& original, const doc::Node& patch,
                                 const schema::Type& type);

}  // namespace tjr::smp
