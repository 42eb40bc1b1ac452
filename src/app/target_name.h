#pragma once

#include <string>
#include <string_view>

#include "app/render_config.h"
#include "base/diagnostic.h"

// The names users give a Trainer target, as every command takes them.
namespace tjr::app {

/// The target a user's spelling names: "v2.3", "2.3", "v2.3.0" and
/// "trainer-v2.3.0" are "trainer-v2.3"; other names are returned as given.
std::string CanonicalTarget(std::string_view target);

/// The canonical name of `target` when it names one of
/// pipeline::SupportedTargets() (in any spelling CanonicalTarget knows);
/// otherwise a usage error that lists them, then `also` (other targets the
/// command takes, e.g. ", flyte-v1.16, flyte-v2").
Result<std::string> SupportedTarget(std::string_view target, std::string_view also = "");

/// The target a run uses: `flag` when given, else the repository's
/// `target:`, else pipeline::kDefaultTarget; SupportedTarget's error when
/// that is not one.
Result<std::string> ChooseTarget(std::string_view flag, const RepoConfig& config);

}  // namespace tjr::app
