#pragma once

#include <span>

#include "schema/embedded_policies.h"

namespace tjr::render::flux_data {

using schema::EmbeddedPolicy;

/// policies/flux-templates.json, the only entry. Defined in a source file
/// that scripts/embed-policies generates at build time.
std::span<const EmbeddedPolicy> EmbeddedPolicies();

}  // namespace tjr::render::flux_data
