#pragma once

#include <vector>

#include "base/diagnostic.h"
#include "base/field_path.h"
#include "doc/node.h"
#include "trainer/defaults_table.h"

namespace tjr::trainer {

/// A default the API server would have written, and where.
struct AppliedDefault {
  FieldPath path;             ///< in the object: spec.template.spec.replicatedJobs[0].replicas
  const CrdDefault* source;   ///< the table entry (schema path, value, CRD line)
};

/// Brings a custom resource to the state the API server stores after
/// decoding it, as far as its CRD's defaults and nulls go
/// (apiextensions-apiserver's structural defaulting):
///  - a property whose schema has a default gets a copy of it when the
///    property is absent or null; objects the user did not write are not
///    created, so defaults below an absent object do not apply;
///  - the walk continues into every present property, every list item and
///    every additionalProperties value, and into defaults it just wrote;
///  - a null list item becomes the item schema's default, if it has one;
///  - any other null in a mapping is removed: none of the Trainer CRDs
///    declares `nullable` or x-kubernetes-preserve-unknown-fields
///    (scripts/gen-crd-defaults checks this), and a null in a field the
///    schema does not know goes with the pruning of unknown fields. The
///    root `metadata` is left alone (ObjectMeta is not decoded by schema).
/// Written values carry the location of the mapping that received them, so
/// later findings about them point at the object the user wrote. Returns the
/// defaults written, in walk order (fields before their parent's siblings).
std::vector<AppliedDefault> ApplyDefaults(const KindDefaults& kind, doc::Node& object);

/// ApplyDefaults with the built-in table `table` (kV21DefaultsTable or
/// kHeadDefaultsTable), the kind chosen by the object's apiVersion and kind
/// (TrainJob, TrainingRuntime, ClusterTrainingRuntime). An object of another
/// kind is an error: it would be stored without these defaults.
Result<std::vector<AppliedDefault>> ApplyBuiltinDefaults(doc::Node& object,
                                                         std::string_view table);

/// ApplyBuiltinDefaults for callers that need only the defaulted object: the
/// list of defaults written (a FieldPath built for each) is not made.
Status DefaultBuiltin(doc::Node& object, std::string_view table);

}  // namespace tjr::trainer
