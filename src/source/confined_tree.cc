#include "source/confined_tree.h"

#include <filesystem>
#include <utility>

#include "source/walk.h"

namespace tjr::source {
namespace {

namespace fs = std::filesystem;

std::string WithoutTrailingSlash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

bool AtOrInside(const std::string& path, const std::string& folder) {
  return path == folder || InsideFolder(path, folder);
}

}  // namespace

ConfinedTree::ConfinedTree(const Tree& tree, std::string root, std::string what)
    : tree_(tree), what_(std::move(what)) {
  std::error_code error;
  fs::path absolute = fs::absolute(root.empty() ? "." : root, error);
  root_ = WithoutTrailingSlash((error ? fs::path(root) : absolute).lexically_normal().string());
  Result<std::string> resolved = tree_.Resolve(root_);
  if (resolved.ok()) {
    resolved_root_ = *resolved;
  } else {
    root_error_ = resolved.take_error();
  }
}

std::string ConfinedTree::Full(const std::string& path) const {
  if (path.empty() || path == ".") return root_;
  fs::path given(path);
  return WithoutTrailingSlash((given.is_absolute() ? given : fs::path(root_) / given).lexically_normal().string());
}

template <class T>
Result<T> ConfinedTree::Renamed(Result<T> result, const std::string& path, const std::string& read) const {
  if (!result.ok()) {
    Diagnostic error = result.take_error();
    const std::string full = Full(path);
    if (error.location.known() && (*error.location.file == full || *error.location.file == read)) {
      error.location.file = InternSourceName(path);
    }
    return error;
  }
  return result;
}

Status ConfinedTree::Check(const std::string& path) const {
  Result<std::string> confined = Confined(path);
  if (!confined.ok()) return confined.take_error();
  return Ok();
}

Result<std::string> ConfinedTree::Confined(const std::string& path) const {
  if (resolved_root_.empty()) return root_error_;
  const std::string where = what_ + " (" + resolved_root_ + "): only paths inside it are read";
  auto refuse = [&](const std::string& message) -> Diagnostic {
    return AsInputError(MakeError(Location{InternSourceName(path)}, "", message));
  };
  const std::string full = Full(path);
  const bool absolute = fs::path(path).is_absolute();
  if (!absolute && !AtOrInside(full, root_)) return refuse("leads out of " + where);
  // The path itself, else the nearest folder above it that exists (a
  // missing file behind a link out of the root is refused all the same).
  std::string existing = full;
  Result<std::string> resolved = tree_.Resolve(existing);
  while (!resolved.ok() && AtOrInside(existing, root_) && existing != root_) {
    existing = fs::path(existing).parent_path().string();
    resolved = tree_.Resolve(existing);
  }
  if (!resolved.ok()) {
    // Neither it nor a folder above it resolves (an absolute path to nothing,
    // a loop of links): what Stat or Read say of it is the error.
    if (absolute) return refuse("lies outside " + where);
    return full;
  }
  if (AtOrInside(*resolved, resolved_root_)) return existing == full ? *resolved : full;
  if (!AtOrInside(existing, root_)) return refuse("resolves to " + *resolved + ", outside " + where);
  // Name the first component on the way that leads out: the link.
  const fs::path below = fs::path(existing).lexically_relative(root_);
  fs::path at = root_;
  for (const fs::path& component : below) {
    at /= component;
    Result<std::string> step = tree_.Resolve(at.string());
    if (!step.ok() || AtOrInside(*step, resolved_root_)) continue;
    const std::string link = at.lexically_relative(root_).generic_string();
    if (at.string() == full) return refuse("is a symbolic link to " + *step + ", outside " + where);
    return refuse("passes through the symbolic link " + link + ", which leads to " + *step + ", outside " + where);
  }
  return refuse("resolves to " + *resolved + ", outside " + where);
}

// Saying what a path names reads nothing of it: a link out is refused when
// it is listed, resolved or read, so a walk still notes a link to a folder
// out of the root as not followed, and a file linked out is refused by name.
Result<EntryType> ConfinedTree::Stat(const std::string& path) const {
  return Renamed(tree_.Stat(Full(path)), path);
}

Result<std::vector<DirEntry>> ConfinedTree::List(const std::string& path) const {
  if (Status inside = Check(path); !inside.ok()) return inside.take_error();
  return Renamed(tree_.List(Full(path)), path);
}

Result<std::string> ConfinedTree::Resolve(const std::string& path) const {
  Result<std::string> resolved = Confined(path);
  if (!resolved.ok()) return resolved;
  return Renamed(tree_.Resolve(Full(path)), path);
}

Result<std::string> ConfinedTree::Read(const std::string& path, std::size_t max_bytes) const {
  Result<std::string> resolved = Confined(path);
  if (!resolved.ok()) return resolved.take_error();
  // What was checked is what is read.
  return Renamed(tree_.Read(*resolved, max_bytes), path, *resolved);
}

}  // namespace tjr::source
