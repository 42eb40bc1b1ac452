#pragma once

#include <span>

#include "schema/embedded_policies.h"

namespace tjr::trainer {

using schema::EmbeddedPolicy;

/// The CRD default tables (policies/trainer-*-defaults.json), sorted by name.
/// Defined in a source file that scripts/embed-policies generates at build time.
std::span<const EmbeddedPolicy> EmbeddedPolicies();

}  // namespace tjr::trainer
