#pragma once

#include <span>

#include "schema/embedded_policies.h"

namespace tjr::validate {

using schema::EmbeddedPolicy;

/// The CRD validation tables (policies/trainer-*-validation.json), sorted
/// by name. Defined in a source file that scripts/embed-policies generates
/// at build time.
std::span<const EmbeddedPolicy> EmbeddedPolicies();

}  // namespace tjr::validate
