#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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
///
/// The file's bytes are kept as read: a lookup finds a blob's lines by
/// binary search and builds only the entries asked for, and a save copies
/// the lines of the blobs it keeps. A blob with a line the writer would not
/// have written (a torn write, an edited file) counts as not cached.
class InventoryCache {
 public:
  /// The cache at `path` (a missing or unreadable file is an empty cache).
  /// Only the bytes are read here; the first Find or Put indexes them, so
  /// that work lands on whichever thread first needs the cache.
  static InventoryCache Load(const std::string& path, const std::string& context);

  /// Appends the entries of the blob `blob_id` to `out`, each with `file` as
  /// its file, and returns true; returns false and appends nothing when the
  /// blob is not cached.
  bool Find(std::string_view blob_id, const std::string& file, std::vector<Entry>* out);
  /// Records a blob's entries (their `file` is not kept). Entries whose
  /// text could not be stored (a tab or newline in a name) leave the blob
  /// uncached.
  void Put(std::string_view blob_id, std::span<const Entry> entries);
  /// Writes the cache back atomically when a blob was added, keeping only
  /// the blobs found or put in this run, so it does not grow with history.
  Status Save() const;

  /// Blobs cached, readable or not (read when found).
  std::size_t size();

 private:
  // The lines of one blob, as offsets into text_ (which a move keeps valid,
  // unlike views into a short string).
  struct Record {
    std::uint64_t key = 0;    // the blob's first bytes (OrderKey): most comparisons end there
    std::uint32_t begin = 0;  // its first line, which starts with the blob id
    std::uint32_t end = 0;    // past its last newline
    std::uint32_t blob_size = 0;
    bool used = false;
    bool bad = false;  // a line could not be read
  };

  void Index();
  std::string_view BlobOf(const Record& record) const {
    return std::string_view(text_).substr(record.begin, record.blob_size);
  }
  Record* Lookup(std::string_view blob_id);
  bool Less(const Record& a, const Record& b) const;

  std::string path_;
  std::string context_;
  std::string text_;  // the file's bytes
  bool indexed_ = false;
  std::vector<Record> records_;  // sorted by blob, one per blob
  // Blobs put in this run that records_ lacks (or could not read), with
  // their lines as the file stores them (sorted only when saved: a cold run
  // puts ten thousand).
  std::unordered_map<std::string, std::string> added_;
};

/// The cache file of a repository whose Git folder is `git_dir`.
std::string InventoryCachePath(const std::string& git_dir);

/// What a cache entry depends on besides the bytes of its file: the load
/// options that change which objects a file yields. render, check and diff
/// pass the same string, so they share one cache.
std::string CacheContext(const source::LoadOptions& options);

}  // namespace tjr::batch
