#pragma once

#include <span>
#include <string_view>

namespace tjr::schema {

/// One policy file compiled into the binary.
struct EmbeddedPolicy {
  std::string_view name;   ///< "kubernetes-v1.34": the file name without ".json"
  std::string_view bytes;  ///< the file's exact contents
};

/// The policies/*.json files, sorted by name. Defined in a source file that
/// scripts/embed-policies generates at build time.
std::span<const EmbeddedPolicy> EmbeddedPolicies();

}  // namespace tjr::schema
