#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.h"
#include "batch/inventory.h"
#include "source/loader.h"

namespace tjr::batch {

/// The inventory entries of files by the Git id of their bytes, kept
/// between runs (in the repository's Git folder), so `--since` reads only
/// the files that changed. A blob id names the bytes exactly, so an entry
/// is valid in any revision; `context` (the loader options that shape
/// entries, such as the default namespace) must match too, else the cache
/// starts empty. Entries are stored without their file name.
class InventoryCache {
 public:
  /// The cache at `path` (a missing or unreadable file is an empty cache).
  /// Only the bytes are read here; the first Find or Put parses them, so
  /// that work lands on whichever thread first needs the cache.
  static InventoryCache Load(const std::string& path, const std::string& context);

  /// The entries of the blob `blob_id`, or nullptr when not cached.
  const std::vector<Entry>* Find(const std::string& blob_id);
  /// Records a blob's entries (their `file` is not kept). Entries whose
  /// text could not be stored (a tab or newline in a name) leave the blob
  /// uncached.
  void Put(const std::string& blob_id, const std::vector<Entry>& entries);
  /// Writes the cache back atomically when it changed, keeping only the
  /// blobs found or put in this run, so it does not grow with history.
  Status Save() const;

  std::size_t size() {
    Index();
    return blobs_.size();
  }

 private:
  void Index();

  std::string path_;
  std::string context_;
  std::string text_;  // the file's bytes until Index parses them
  bool indexed_ = false;
  struct Blob {
    std::vector<Entry> entries;
    bool used = false;
  };
  std::unordered_map<std::string, Blob> blobs_;
  std::size_t used_ = 0;
  bool dirty_ = false;
};

/// The cache file of a repository whose Git folder is `git_dir`.
std::string InventoryCachePath(const std::string& git_dir);

/// What a cache entry depends on besides the bytes of its file: the load
/// options that change which objects a file yields. render, check and diff
/// pass the same string, so they share one cache.
std::string CacheContext(const source::LoadOptions& options);

}  // namespace tjr::batch
