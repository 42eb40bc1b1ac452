#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/glob.h"
#include "source/tree.h"

namespace tjr::cli {

/// The file name of the repository configuration.
inline constexpr char kRepoConfigFile[] = ".tjrender.yaml";

/// Settings a repository can pin in .tjrender.yaml.
struct RepoConfig {
  std::optional<std::string> target;  ///< `target: trainer-v2.1`
  /// `include:` / `exclude:` glob lists (see source::GlobMatch), relative to
  /// the folder holding the file; they select the files directory walks read.
  source::PathFilter filter;
};

/// Where .tjrender.yaml is looked for in `tree`: in the first path when it
/// is a directory, else at "." (the current directory on disk, the
/// repository root in a Git revision).
std::string RepoConfigPath(const source::Tree& tree, const std::vector<std::string>& paths);

/// Reads the configuration at `path` of `tree`; a missing file is an empty
/// configuration. Unknown keys and mistyped values are errors, so a typo
/// cannot silently select the default target or every file.
Result<RepoConfig> ReadRepoConfig(const source::Tree& tree, const std::string& path);

/// The configuration in `text` (named `name` in messages).
Result<RepoConfig> ParseRepoConfig(const std::string& text, const std::string& name);

}  // namespace tjr::cli
