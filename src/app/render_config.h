#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "report/ignore.h"
#include "source/glob.h"
#include "source/tree.h"

namespace tjr::app {

/// The file name of the repository configuration.
inline constexpr char kRepoConfigFile[] = ".tjrender.yaml";

/// Settings a repository can pin in .tjrender.yaml.
struct RepoConfig {
  std::optional<std::string> target;  ///< `target: trainer-v2.1`
  /// `ignore: [{rule: volume-two-sources, reason: ...}]`: warnings silenced
  /// everywhere; every entry needs a reason.
  std::vector<report::IgnoreRule> ignore;
  /// `include:` / `exclude:` glob lists (see source::GlobMatch), relative to
  /// the folder holding the file; they select the files directory walks read.
  source::PathFilter filter;
};

/// The .tjrender.yaml of `tree` that applies: the first one found in the
/// first path's folder (the path itself when a directory; "." for `-` or no
/// path: the current directory on disk, the root of a Git revision) or a
/// parent of it, up to the repository root (a folder with .git, or the
/// revision's root). When there is none, the path it would have in the
/// first folder.
std::string RepoConfigPath(const source::Tree& tree, const std::vector<std::string>& paths);
/// RepoConfigPath on the file system.
std::string RepoConfigPath(const std::vector<std::string>& paths);

/// Reads the configuration at `path` of `tree`; a missing file is an empty
/// configuration. Unknown keys and mistyped values are errors, so a typo
/// cannot silently select the default target or every file.
Result<RepoConfig> ReadRepoConfig(const source::Tree& tree, const std::string& path);
/// ReadRepoConfig on the file system.
Result<RepoConfig> ReadRepoConfig(const std::string& path);

/// The configuration in `text` (named `name` in messages).
Result<RepoConfig> ParseRepoConfig(const std::string& text, const std::string& name);

}  // namespace tjr::app
