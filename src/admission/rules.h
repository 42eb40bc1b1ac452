#pragma once

#include <span>
#include <string_view>

// The catalogue of rendered-object rules: every rule id an admission check
// reports, what it covers and the upstream function it follows. The manual's
// "Rendered-object rules" section lists the same (a unit test compares).
namespace tjr::admission {

struct RuleInfo {
  std::string_view id;        ///< "resources": reported as rendered/<kind>/resources
  std::string_view kinds;     ///< the objects it applies to: "job pod podtemplate"
  std::string_view covers;    ///< one line: what it checks
  std::string_view upstream;  ///< "pkg/apis/core/validation/validation.go ValidateResourceRequirements"
};

std::span<const RuleInfo> Rules();

/// The entry of `id`, or nullptr.
const RuleInfo* FindRule(std::string_view id);

}  // namespace tjr::admission
