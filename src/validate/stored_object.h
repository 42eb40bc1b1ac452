#pragma once

#include "doc/node.h"
#include "validate/crd_rules.h"

// What the API server stores of a custom resource: structural pruning drops
// every key below the root that the CRD's schema does not have, before
// defaulting, validation and admission webhooks see the object. CheckCrdSchema
// warns about each such key (`[field-pruned]`); this gives the object without
// them, which is what the controller later reads.
namespace tjr::validate {

/// `object` with every key the table's schema prunes removed, at any depth
/// below the root; the same node (shared, not copied) where nothing is
/// pruned. Nodes outside the table's schema (`status`) are kept as they are.
doc::Node PrunedAsStored(const CrdRules& rules, const doc::Node& object);

}  // namespace tjr::validate
