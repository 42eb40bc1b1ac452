#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/file.h"
#include "source/tree.h"

namespace tjr::source {

/// A regular file this run writes (tjrender's stdout redirected into a file,
/// a --report file), known by device and inode: `render . -o - > out.yaml`
/// creates out.yaml inside the folder being read before tjrender starts, so
/// it must never be read as an input, whatever path reaches it.
struct OutputFile {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::string what;  ///< "tjrender's stdout", "the --report file": for messages
  /// Set: device and inode name a folder, and its entries whose names start
  /// with this are left out of its listings (`render --out DIR`'s staging
  /// folders and lock beside DIR, a killed run's included).
  std::string name_prefix;
};

/// The rule id of a read refused because the file is an OutputFile: the
/// loader leaves such a file out with a note, as listings do.
inline constexpr char kRuleOwnOutput[] = "own-output";

/// The local file system. Relative paths are relative to the working
/// directory; reading goes through tjr::ReadFile and its size limit.
class DiskTree final : public Tree {
 public:
  /// With `remember_reads`, every file read is remembered (its stamp, the
  /// time, a hash of its bytes) for ChangedSinceRead.
  /// `outputs` are left out of every listing (DirEntry::left_out says
  /// why) and refused when read through a path named directly, a link or a
  /// list of changed files (rule kRuleOwnOutput).
  explicit DiskTree(bool remember_reads = false, std::vector<OutputFile> outputs = {});
  ~DiskTree() override;

  Result<EntryType> Stat(const std::string& path) const override;
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override;
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override;

  /// The files read so far (first reads) that are no longer what was read:
  /// their stamp changed, or, for a file modified so shortly before it was
  /// read that its timestamps cannot tell a later rewrite apart (Git's
  /// "racily clean" files), its bytes differ when read again. A file
  /// rewritten in place and caught empty (or half written) shows up here,
  /// where the loader saw a file with no TrainJob.
  std::vector<std::string> ChangedSinceRead() const;
  /// Whether some read failed because the file changed while it was read
  /// (an error the reader already reported).
  bool SawChangeWhileReading() const;

 private:
  struct Journal;
  std::unique_ptr<Journal> journal_;
  std::vector<OutputFile> outputs_;
};

}  // namespace tjr::source
