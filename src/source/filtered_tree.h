#pragma once

#include <string>

#include "source/glob.h"
#include "source/tree.h"

namespace tjr::source {

/// Another tree as directory walks should see it: the repository
/// configuration file (`hidden_name`, a manifest extension but no manifest)
/// left out of every listing, and files outside `filter` left out of the
/// listings too. Filter patterns apply to paths relative to `base` (the
/// folder holding the configuration, in the wrapped tree's naming); files
/// outside `base` are not filtered. Stat and Read see everything, so a
/// file named on the command line is read whatever the filter says.
class FilteredTree final : public Tree {
 public:
  FilteredTree(const Tree& tree, std::string hidden_name, std::string base, PathFilter filter);

  Result<EntryType> Stat(const std::string& path) const override { return tree_.Stat(path); }
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override {
    return tree_.Resolve(path);
  }
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override {
    return tree_.Read(path, max_bytes);
  }

  /// Whether a file at `path` passes the filter (true outside `base`).
  bool Accepts(const std::string& path) const;

 private:
  const Tree& tree_;
  std::string hidden_name_;
  std::string base_;
  bool unfiltered_;
  PathMatcher matcher_;
};

/// Another tree with every path taken relative to `root` (a folder of the
/// wrapped tree): the working tree of a repository named by
/// repository-relative paths, as a Git revision names them.
class RootedTree final : public Tree {
 public:
  RootedTree(const Tree& tree, std::string root) : tree_(tree), root_(std::move(root)) {}

  Result<EntryType> Stat(const std::string& path) const override;
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override;
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override;

 private:
  std::string Full(const std::string& path) const;
  // Errors name the path as given, not the rooted one.
  template <class T>
  Result<T> Renamed(Result<T> result, const std::string& path) const;

  const Tree& tree_;
  std::string root_;
};

}  // namespace tjr::source
