#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// What a path names. Directory listings report a symbolic link as kSymlink;
/// Tree::Stat follows links and never returns it.
enum class EntryType { kFile, kDirectory, kSymlink, kOther };

/// One entry of a directory listing.
struct DirEntry {
  std::string name;
  EntryType type = EntryType::kOther;
  /// The Git object id of a file's bytes when the tree is a Git revision
  /// (saves a second lookup per file when a cache is keyed by it), else "".
  std::string object_id = {};
  /// Set when the tree leaves this file out of every walk, saying why (a
  /// file this run writes, such as tjrender's own redirected stdout).
  std::string left_out = {};
};

/// Read-only access to a tree of files: the file system today, a Git
/// revision later. The loader sees files only through this interface, so a
/// new source needs a new Tree and no change to the loader. Paths are
/// '/'-separated strings as the user wrote them; errors are diagnostics that
/// name the path.
class Tree {
 public:
  virtual ~Tree() = default;

  /// The type of what `path` names, following symbolic links. A missing path
  /// or a broken link is an error.
  virtual Result<EntryType> Stat(const std::string& path) const = 0;

  /// The entries of the directory `path` ("." and ".." left out), in no
  /// particular order.
  virtual Result<std::vector<DirEntry>> List(const std::string& path) const = 0;

  /// `path` with every symbolic link resolved, in a canonical form: two
  /// results name the same file exactly when they are equal, and one lies
  /// inside another's directory exactly when it starts with it and a '/'.
  virtual Result<std::string> Resolve(const std::string& path) const = 0;

  /// The bytes of the file `path`; refused before reading when larger than
  /// `max_bytes`.
  virtual Result<std::string> Read(const std::string& path, std::size_t max_bytes) const = 0;
};

}  // namespace tjr::source
