#pragma once

#include <string>

#include "doc/node.h"
#include "validate/validate.h"

// The JSON the Trainer v2.2/v2.3 webhook's json.Marshal prints for
// []trainer.RuntimePatch, the value of every runtimePatches field error
// (trainjob_types.go:293-496 at v2.3.0): a typed round trip through the
// release's RuntimePatch (policies/trainer-<tag>.json). Offline there is no
// webhook time stamp: `time` prints as the typed value marshals it (UTC).
namespace tjr::validate {

/// []trainer.RuntimePatch as json.Marshal writes it; "null" when absent or
/// empty. The release's types decide the fields: `terminationGracePeriodSeconds`
/// exists only from v2.3.0 on (an older webhook's decoder drops it).
std::string RuntimePatchesJson(const doc::Node* patches, trainer::TrainerVersion version);

/// One trainer.RuntimePatch's JSON with `time` left out: equal strings mean
/// equal content as the mutating webhook compares entries (§1.8).
std::string RuntimePatchContentJson(const doc::Node& entry, trainer::TrainerVersion version);

}  // namespace tjr::validate
