#pragma once

#include <string>
#include <vector>

namespace tjr::source {

/// Whether the '/'-separated relative `path` matches the glob `pattern`:
/// `*`, `?` and `[...]` match within one path component, a `**` component
/// matches any number of components (none included). A pattern without '/'
/// matches a component at any depth (as in .gitignore); one with '/' is
/// anchored at the start of `path` (a leading "/" or "./" is ignored). A
/// pattern that matches a folder matches everything below it, so `vendor`,
/// `vendor/` and `vendor/**` all cover `vendor/a/b.yaml`.
bool GlobMatch(const std::string& pattern, const std::string& path);

/// Which files a repository's .tjrender.yaml selects.
struct PathFilter {
  std::vector<std::string> include;  ///< empty: every file
  std::vector<std::string> exclude;

  bool empty() const { return include.empty() && exclude.empty(); }
  /// A file is read when it matches some include pattern (or there are none)
  /// and no exclude pattern.
  bool Accepts(const std::string& relative_path) const;
};

}  // namespace tjr::source
