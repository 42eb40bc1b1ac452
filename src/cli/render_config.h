#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "report/ignore.h"

namespace tjr::cli {

/// The file name of the repository configuration.
inline constexpr char kRepoConfigFile[] = ".tjrender.yaml";

/// Settings a repository can pin in .tjrender.yaml.
struct RepoConfig {
  std::optional<std::string> target;  ///< `target: trainer-v2.1`
  /// `ignore: [{rule: volume-two-sources, reason: ...}]`: warnings silenced
  /// everywhere; every entry needs a reason.
  std::vector<report::IgnoreRule> ignore;
};

/// Where .tjrender.yaml is looked for: in the first path when it is a
/// directory, else in the current directory.
std::string RepoConfigPath(const std::vector<std::string>& paths);

/// Reads the configuration at `path`; a missing file is an empty
/// configuration. Unknown keys and non-string values are errors, so a typo
/// cannot silently select the default target.
Result<RepoConfig> ReadRepoConfig(const std::string& path);

}  // namespace tjr::cli
