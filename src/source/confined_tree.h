#pragma once

#include <string>
#include <vector>

#include "source/tree.h"

namespace tjr::source {

/// Another tree seen from one of its folders, `root`, and never past it:
/// every path is taken relative to `root` (absolute ones as they are), and a
/// path that leaves it, by `..` or through a symbolic link anywhere along it,
/// is refused before anything is listed, resolved or read, with an error that
/// names the path, the link, where it leads and the root (Stat, which reads
/// nothing, says what any path names). Links that stay inside are followed. This is the rule directory walks apply to the links inside a
/// folder they read (ExpandPaths), applied to every path: the root of the
/// Argo CD plugin's repository copy, of a KRM package, of the folder holding
/// a post-renderer's .tjrender.yaml, where the inputs are not the user's own.
class ConfinedTree final : public Tree {
 public:
  /// `what` names the root in messages ("the repository"). A root that
  /// cannot be resolved refuses every path with that error.
  ConfinedTree(const Tree& tree, std::string root, std::string what);

  Result<EntryType> Stat(const std::string& path) const override;
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override;
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override;

  /// The root resolved (every link in it followed), "" when it could not be.
  const std::string& ResolvedRoot() const { return resolved_root_; }
  /// Ok when `path` exists and resolves inside the root, or does not exist
  /// where it would lie inside; else the refusal.
  Status Check(const std::string& path) const;

 private:
  std::string Full(const std::string& path) const;
  // Errors name `path` as given, not the full or resolved path read.
  template <class T>
  Result<T> Renamed(Result<T> result, const std::string& path, const std::string& read = "") const;
  // `path` resolved when inside the root, else the refusal.
  Result<std::string> Confined(const std::string& path) const;

  const Tree& tree_;
  std::string root_;
  std::string what_;
  std::string resolved_root_;
  Diagnostic root_error_;
};

}  // namespace tjr::source
