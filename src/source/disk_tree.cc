#include "source/disk_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <optional>

#include "base/file.h"

namespace tjr::source {
namespace {

Diagnostic SystemError(const std::string& path, const std::string& what, int error) {
  return AsInputError(
      MakeError(Location{InternSourceName(path)}, "", what + ": " + std::strerror(error)));
}

EntryType TypeOfMode(mode_t mode) {
  if (S_ISREG(mode)) return EntryType::kFile;
  if (S_ISDIR(mode)) return EntryType::kDirectory;
  if (S_ISLNK(mode)) return EntryType::kSymlink;
  return EntryType::kOther;
}

struct DirCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};

// File timestamps come from the kernel's coarse clock, up to a tick behind
// the real time, and some file systems keep whole seconds: a file modified
// within this margin before it was read may be rewritten again without a
// new timestamp.
constexpr std::int64_t kRacyMarginNs = 2'000'000'000;

std::int64_t NowNs() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

struct DiskTree::Journal {
  struct Read {
    FileStamp stamp;
    std::int64_t read_at_ns = 0;
    std::size_t hash = 0;
    std::size_t max_bytes = 0;
  };
  std::mutex mutex;
  std::map<std::string, Read> reads;
  bool changed_while_reading = false;
};

DiskTree::DiskTree(bool remember_reads, std::vector<OutputFile> outputs)
    : journal_(remember_reads ? std::make_unique<Journal>() : nullptr), outputs_(std::move(outputs)) {}
DiskTree::~DiskTree() = default;

std::vector<std::string> DiskTree::ChangedSinceRead() const {
  std::vector<std::string> changed;
  if (journal_ == nullptr) return changed;
  std::lock_guard lock(journal_->mutex);
  for (const auto& [path, read] : journal_->reads) {
    std::optional<FileStamp> now = StampOf(path);
    if (!now || *now != read.stamp) {
      changed.push_back(path);
      continue;
    }
    if (std::max(read.stamp.mtime_ns, read.stamp.ctime_ns) < read.read_at_ns - kRacyMarginNs) continue;
    Result<std::string> again = ReadFile(path, read.max_bytes);
    if (!again.ok() || std::hash<std::string_view>{}(*again) != read.hash) changed.push_back(path);
  }
  return changed;
}

bool DiskTree::SawChangeWhileReading() const {
  if (journal_ == nullptr) return false;
  std::lock_guard lock(journal_->mutex);
  return journal_->changed_while_reading;
}

Result<EntryType> DiskTree::Stat(const std::string& path) const {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    int error = errno;
    // A link whose target is missing reads as "no such file" otherwise,
    // which sends the reader looking for the link itself.
    struct stat link {};
    if (error == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                    "broken symbolic link: its target does not exist"));
    }
    return SystemError(path, "cannot stat", error);
  }
  return TypeOfMode(info.st_mode);
}

Result<std::vector<DirEntry>> DiskTree::List(const std::string& path) const {
  std::unique_ptr<DIR, DirCloser> dir(::opendir(path.c_str()));
  if (dir == nullptr) return SystemError(path, "cannot list directory", errno);
  const int dir_fd = ::dirfd(dir.get());
  // Entries of this folder left out by name (OutputFile::name_prefix).
  std::vector<const OutputFile*> by_name;
  struct stat folder {};
  bool stated = false;
  for (const OutputFile& output : outputs_) {
    if (output.name_prefix.empty()) continue;
    if (!stated && ::fstat(dir_fd, &folder) != 0) break;
    stated = true;
    if (static_cast<std::uint64_t>(folder.st_dev) == output.device &&
        static_cast<std::uint64_t>(folder.st_ino) == output.inode) {
      by_name.push_back(&output);
    }
  }
  std::vector<DirEntry> entries;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(dir.get());
    if (entry == nullptr) {
      if (errno != 0) return SystemError(path, "cannot list directory", errno);
      break;
    }
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    EntryType type = EntryType::kOther;
    // The listing's inode number is free; only a match costs a stat, for
    // the device.
    const OutputFile* output = nullptr;
    for (const OutputFile* candidate : by_name) {
      if (name.rfind(candidate->name_prefix, 0) == 0) output = candidate;
    }
    for (const OutputFile& candidate : outputs_) {
      if (output != nullptr) break;
      if (!candidate.name_prefix.empty() || candidate.inode != entry->d_ino) continue;
      struct stat info {};
      if (::fstatat(dir_fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode) &&
          static_cast<std::uint64_t>(info.st_dev) == candidate.device) {
        output = &candidate;
        break;
      }
    }
    switch (entry->d_type) {
      case DT_REG: type = EntryType::kFile; break;
      case DT_DIR: type = EntryType::kDirectory; break;
      case DT_LNK: type = EntryType::kSymlink; break;
      case DT_UNKNOWN: {
        // Some file systems (XFS without ftype, many network ones) leave the
        // type out of the listing.
        struct stat info {};
        if (::fstatat(dir_fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
          return SystemError(path + "/" + name, "cannot stat", errno);
        }
        type = TypeOfMode(info.st_mode);
        break;
      }
      default: break;
    }
    entries.push_back({std::move(name), type});
    if (output != nullptr) {
      entries.back().left_out = output->name_prefix.empty() ? output->what + ", written by this run" : output->what;
    }
  }
  return entries;
}

Result<std::string> DiskTree::Resolve(const std::string& path) const {
  std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr),
                                                       &std::free);
  if (resolved == nullptr) return SystemError(path, "cannot resolve path", errno);
  return std::string(resolved.get());
}

Result<std::string> DiskTree::Read(const std::string& path, std::size_t max_bytes) const {
  if (!outputs_.empty()) {
    // Reached through a path named directly or a link: listings have left
    // it out already.
    if (std::optional<FileStamp> stamp = StampOf(path)) {
      for (const OutputFile& output : outputs_) {
        if (output.name_prefix.empty() && stamp->device == output.device && stamp->inode == output.inode) {
          Diagnostic refused = AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                                      "left out: " + output.what + ", written by this run"));
          refused.rule = kRuleOwnOutput;
          return refused;
        }
      }
    }
  }
  if (journal_ == nullptr) return ReadFile(path, max_bytes);
  const std::int64_t started = NowNs();
  FileStamp stamp;
  Result<std::string> bytes = ReadFile(path, max_bytes, &stamp);
  if (bytes.ok()) {
    Journal::Read read{stamp, started, std::hash<std::string_view>{}(*bytes), max_bytes};
    std::lock_guard lock(journal_->mutex);
    journal_->reads.try_emplace(path, read);  // the first read is what the run is based on
  } else if (bytes.error().rule == kRuleInputChanged) {
    std::lock_guard lock(journal_->mutex);
    journal_->changed_while_reading = true;
  }
  return bytes;
}

}  // namespace tjr::source
