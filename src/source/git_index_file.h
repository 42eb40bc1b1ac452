#pragma once
// A reader of Git's index file (gitformat-index), for the working-tree
// comparison: libgit2's own reader checks the trailing SHA-1 of the whole
// file and builds an object per entry, which cost more than the rest of a
// `--since` run's comparison. Plain C++: no libgit2 types.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// A raw SHA-1 object id.
using RawOid = std::array<std::uint8_t, 20>;

/// One index entry, the fields as stored (see gitformat-index).
struct IndexEntry {
  std::string_view path;  ///< into the IndexFile's storage (or the caller's)
  std::uint32_t ctime_seconds = 0;
  std::uint32_t ctime_nanoseconds = 0;
  std::uint32_t mtime_seconds = 0;
  std::uint32_t mtime_nanoseconds = 0;
  std::uint32_t dev = 0;
  std::uint32_t ino = 0;
  std::uint32_t mode = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::uint32_t file_size = 0;
  RawOid id{};
  std::uint8_t stage = 0;  ///< 0, or 1-3 for the sides of a conflict
  bool assume_valid = false;  ///< `git update-index --assume-unchanged`
  bool skip_worktree = false;
  bool intent_to_add = false;
};

/// A folder's entry in the TREE extension that is still valid.
struct CachedTree {
  std::string path;  ///< "" for the root, else "a/b"
  RawOid id{};       ///< the tree the index's entries under it make
};

/// A parsed index. Entries are in the file's order, which the reader checks
/// is Git's (paths by bytes, then stage), so the paths can be searched.
struct IndexFile {
  std::uint32_t version = 0;
  std::vector<IndexEntry> entries;
  /// The root of the TREE (cache-tree) extension when it is valid: the id of
  /// the tree the stage-0 entries make (what `git write-tree` would write).
  bool has_root_tree = false;
  RawOid root_tree{};
  /// Every valid folder of the TREE extension, sorted by path. Git
  /// invalidates a folder (and its parents) when an entry under it changes
  /// and leaves folders with conflicts or `git add -N` entries invalid.
  std::vector<CachedTree> cache_trees;
  bool has_conflicts = false;       ///< an entry with stage > 0
  bool has_intent_to_add = false;   ///< an entry `git add -N` made (not in the tree)
  bool has_assume_valid = false;    ///< an entry marked assume-unchanged
  /// Where `entries[i].path` points (v4 paths are rebuilt, so they cannot
  /// point into the file); a vector, whose buffer a move keeps.
  std::vector<char> path_storage;

  /// The valid cache-tree id of `folder` ("" for the root), or null.
  const RawOid* CachedTreeOf(std::string_view folder) const;

  IndexFile() = default;
  IndexFile(const IndexFile&) = delete;
  IndexFile& operator=(const IndexFile&) = delete;
  IndexFile(IndexFile&&) = default;
  IndexFile& operator=(IndexFile&&) = default;
};

/// Parses the bytes of an index file: versions 2, 3 and 4, extended flags,
/// the TREE extension's root; other optional extensions (first letter A-Z)
/// are skipped. Everything is bounds-checked. An error for anything else:
/// a truncated or malformed file, entries out of order, another version, a
/// required extension (`link` of a split index, `sdir` of a sparse index,
/// any unknown one). The trailing checksum is not verified: that is the
/// cost this reader exists to avoid; Git writes the file under a lock and
/// renames it into place, so a reader never sees half of one.
Result<IndexFile> ParseIndex(std::string_view bytes);

/// Reads and parses the index file at `path` (ParseIndex), and its
/// modification time, which decides which entries are racily clean.
struct ReadIndex {
  IndexFile index;
  std::int64_t mtime_seconds = 0;
  std::int64_t mtime_nanoseconds = 0;
};
Result<ReadIndex> ReadIndexFile(const std::string& path);

}  // namespace tjr::source
