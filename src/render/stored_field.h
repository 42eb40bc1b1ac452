#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "schema/schema.h"

// What a TrainJob's typed field holds: the value as the API server stored it
// (the pipeline prunes what the CRD's schema lacks first, validate::PrunedAsStored)
// decoded into its Go type with the controller's case-sensitive decoder and
// encoded again with encoding/json's omitempty rules. The patch
// builders of v2.1 (PodTemplateSpecOverride) and v2.2+ (JobSetSpecPatch)
// marshal exactly this, so the Trainer API types in policies/ decide which
// fields a patch can carry and in which order.
namespace tjr::render {

/// `value` as a stored field of Go type `type` holds it.
Result<doc::Node> StoredValue(const doc::Node& value, const schema::Type& type);

/// `value` as `owner`'s field `field` holds it.
Result<doc::Node> StoredField(const doc::Node& value, const schema::Type& owner, std::string_view field);

}  // namespace tjr::render
