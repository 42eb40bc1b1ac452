#pragma once

#include <span>

#include "schema/embedded_policies.h"

namespace tjr::admission {

using schema::EmbeddedPolicy;

/// The JobSet CRD validation tables (policies/jobset-*-validation.json,
/// scripts/gen-jobset-crd-validation), sorted by name. Defined in a source
/// file that scripts/embed-policies generates at build time.
std::span<const EmbeddedPolicy> EmbeddedPolicies();

}  // namespace tjr::admission
