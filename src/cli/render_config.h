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

/// The .tjrender.yaml that applies: the first one found in the first path's
/// folder (the path itself when a directory; the current directory for `-`
/// or no path) or a parent of it, up to the repository root (a folder with
/// .git). When there is none, the path it would have in the first folder.
std::string RepoConfigPath(const std::vector<std::string>& paths);

/// Reads the configuration at `path`; a missing file is an empty
/// configuration. Unknown keys and non-string values are errors, so a typo
/// cannot silently select the default target.
Result<RepoConfig> ReadRepoConfig(const std::string& path);

}  // namespace tjr::cli
