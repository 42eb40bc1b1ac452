#include "source/git_pack_check.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>


namespace tjr::source {
namespace {

constexpr std::uint64_t kHashSize = 20;
constexpr std::uint64_t kFanOut = 256 * 4;
constexpr std::uint64_t kPackHeader = 12;
constexpr char kIndexMagic[] = "\377tOc";

std::uint32_t Be32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (std::uint32_t{u[0]} << 24) | (std::uint32_t{u[1]} << 16) | (std::uint32_t{u[2]} << 8) | u[3];
}

Diagnostic Damaged(const std::string& what) { return AsInputError(MakeError(Location{}, "", what)); }

// Where a version-2 index's tables start: header, fan-out, names, CRCs.
std::uint64_t Offsets32(std::uint64_t objects) { return 8 + kFanOut + objects * (kHashSize + 4); }

}  // namespace

Result<PackIndexSummary> ReadPackIndexHeader(std::string_view index) {
  // Sizes in 64 bits: 2^32-1 objects of 28 bytes overflow 32.
  const std::uint64_t size = index.size();
  if (size < kFanOut + 2 * kHashSize) return Damaged("index file is too small (" + std::to_string(size) + " bytes)");
  PackIndexSummary summary;
  std::string_view fan_out = index.substr(0, kFanOut);
  if (index.substr(0, 4) == std::string_view(kIndexMagic, 4)) {
    summary.version = Be32(index.data() + 4);
    if (summary.version != 2) {
      return Damaged("index file is version " + std::to_string(summary.version) + " and is not supported");
    }
    fan_out = index.substr(8, kFanOut);
    if (fan_out.size() < kFanOut) return Damaged("index file is too small (" + std::to_string(size) + " bytes)");
  } else {
    summary.version = 1;
  }
  std::uint32_t count = 0;
  for (std::size_t i = 0; i < 256; ++i) {
    const std::uint32_t next = Be32(fan_out.data() + 4 * i);
    if (next < count) {
      return Damaged("non-monotonic index (fan-out entry " + std::to_string(i) + " is " + std::to_string(next) +
                     ", after " + std::to_string(count) + ")");
    }
    count = next;
  }
  summary.objects = count;
  const std::uint64_t objects = count;
  std::uint64_t least = 0;
  std::uint64_t most = 0;
  if (summary.version == 1) {
    least = most = kFanOut + objects * (4 + kHashSize) + 2 * kHashSize;
  } else {
    least = Offsets32(objects) + objects * 4 + 2 * kHashSize;
    most = least + (objects > 0 ? (objects - 1) * 8 : 0);  // 64-bit offsets for all but the first
  }
  if (size < least || size > most) {
    const std::string expected = least == most ? std::to_string(least)
                                               : "from " + std::to_string(least) + " to " + std::to_string(most);
    return Damaged("wrong index v" + std::to_string(summary.version) + " file size: " + std::to_string(size) +
                   " bytes, where the " + std::to_string(objects) + " objects its fan-out table counts take " +
                   expected);
  }
  if ((size - least) % 8 != 0) {
    return Damaged("wrong index v2 file size: " + std::to_string(size - least) +
                   " bytes of 64-bit offsets are no whole number of offsets");
  }
  summary.pack_checksum = std::string(index.substr(size - 2 * kHashSize, kHashSize));
  return summary;
}

Status CheckPackOffsets(std::string_view index, const PackIndexSummary& summary, std::uint64_t pack_size) {
  // An object needs its header byte before the pack's trailing checksum.
  const std::uint64_t end = pack_size > kPackHeader + kHashSize ? pack_size - kHashSize : kPackHeader;
  const std::uint64_t objects = summary.objects;
  const std::uint64_t table = summary.version == 1 ? kFanOut : Offsets32(objects);
  const std::uint64_t large = table + objects * 4;
  const std::uint64_t large_count = summary.version == 1 ? 0 : (index.size() - 2 * kHashSize - large) / 8;
  for (std::uint64_t i = 0; i < objects; ++i) {
    std::uint64_t offset =
        summary.version == 1 ? Be32(index.data() + table + i * (4 + kHashSize)) : Be32(index.data() + table + i * 4);
    if (summary.version == 2 && (offset & 0x80000000u) != 0) {
      const std::uint64_t slot = offset & 0x7fffffffu;
      if (slot >= large_count) {
        return Damaged("offset beyond end of pack index (truncated index?): object " + std::to_string(i) +
                       " names 64-bit offset " + std::to_string(slot) + " of " + std::to_string(large_count));
      }
      const char* at = index.data() + large + slot * 8;
      offset = (std::uint64_t{Be32(at)} << 32) | Be32(at + 4);
    }
    if (offset < kPackHeader || offset >= end) {
      return Damaged("offset " + std::to_string(offset) + " of object " + std::to_string(i) +
                     (offset < kPackHeader ? " lies in the pack's header (broken .idx?)"
                                           : " beyond end of packfile (truncated pack?)") +
                     ": the pack has " + std::to_string(pack_size) + " bytes");
    }
  }
  return Ok();
}

Status CheckPackEnds(std::string_view head, std::string_view tail, std::uint64_t pack_size,
                     const PackIndexSummary& summary) {
  if (pack_size < kPackHeader + kHashSize || head.size() < kPackHeader || tail.size() < kHashSize) {
    return Damaged("file is far too short to be a packfile (" + std::to_string(pack_size) + " bytes)");
  }
  if (head.substr(0, 4) != "PACK") return Damaged("file is not a GIT packfile");
  const std::uint32_t version = Be32(head.data() + 4);
  if (version != 2 && version != 3) {
    return Damaged("packfile is version " + std::to_string(version) + " and not supported");
  }
  const std::uint32_t objects = Be32(head.data() + 8);
  if (objects != summary.objects) {
    return Damaged("packfile claims to have " + std::to_string(objects) + " objects while index indicates " +
                   std::to_string(summary.objects) + " objects");
  }
  if (tail.substr(tail.size() - kHashSize) != summary.pack_checksum) return Damaged("packfile does not match index");
  return Ok();
}

namespace {

// A file read-only in memory, or why not.
class Mapped {
 public:
  Mapped() = default;
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  ~Mapped() {
    if (data_ != nullptr) munmap(data_, size_);
  }

  // False, with `error`, when `path` is no regular file or cannot be read.
  // O_NONBLOCK: a FIFO in its place must not block the open.
  bool Open(const std::string& path, std::string* error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      *error = std::string("cannot open: ") + std::strerror(errno);
      return false;
    }
    struct stat info {};
    bool ok = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
    if (!ok) {
      *error = "not a regular file";
    } else if (info.st_size > 0) {
      size_ = static_cast<std::size_t>(info.st_size);
      void* data = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      ok = data != MAP_FAILED;
      if (ok) data_ = data;
      if (!ok) *error = std::string("cannot read: ") + std::strerror(errno);
    }
    ::close(fd);
    return ok;
  }

  std::string_view bytes() const { return {static_cast<const char*>(data_), data_ != nullptr ? size_ : 0}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// The first 12 bytes and the last 20 of a pack (what a shorter one has).
bool ReadPackEnds(const std::string& path, std::uint64_t size, std::string* head, std::string* tail) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  head->resize(std::min<std::uint64_t>(size, kPackHeader));
  tail->resize(std::min<std::uint64_t>(size, kHashSize));
  const bool ok =
      ::pread(fd, head->data(), head->size(), 0) == static_cast<ssize_t>(head->size()) &&
      ::pread(fd, tail->data(), tail->size(), static_cast<off_t>(size - tail->size())) ==
          static_cast<ssize_t>(tail->size());
  ::close(fd);
  return ok;
}

Diagnostic At(const std::string& path, const std::string& what, Diagnostic error) {
  error.location = Location{InternSourceName(path)};
  error.message = what + ": " + error.message;
  return error;
}

// One index and its pack, as libgit2 reads them.
Status CheckPack(const std::string& index_path, const std::string& pack_path, std::uint64_t pack_size) {
  Mapped index;
  std::string error;
  if (!index.Open(index_path, &error)) return At(index_path, "damaged pack index", Damaged(error));
  Result<PackIndexSummary> summary = ReadPackIndexHeader(index.bytes());
  if (!summary.ok()) return At(index_path, "damaged pack index", summary.take_error());
  std::string head, tail;
  if (!ReadPackEnds(pack_path, pack_size, &head, &tail)) {
    return At(pack_path, "damaged pack", Damaged(std::string("cannot read: ") + std::strerror(errno)));
  }
  Status ends = CheckPackEnds(head, tail, pack_size, *summary);
  if (!ends.ok()) return At(pack_path, "damaged pack", ends.take_error());
  Status offsets = CheckPackOffsets(index.bytes(), *summary, pack_size);
  if (!offsets.ok()) return At(index_path, "damaged pack index", offsets.take_error());
  return Ok();
}

// What identifies a version of an index and its pack.
using Checked = std::tuple<std::string, std::uint64_t, std::uint64_t, std::int64_t, std::int64_t>;

// The index and pack at these paths, unless checked before as they are.
Status CheckOnce(const std::string& index_path) {
  // libgit2 reads an index only beside its pack, a regular file.
  const std::string pack_path = index_path.substr(0, index_path.size() - 4) + ".pack";
  struct stat pack {};
  struct stat index {};
  if (::stat(pack_path.c_str(), &pack) != 0 || !S_ISREG(pack.st_mode) || ::stat(index_path.c_str(), &index) != 0) {
    return Ok();
  }
  const Checked key{index_path, static_cast<std::uint64_t>(index.st_ino), static_cast<std::uint64_t>(index.st_size),
                    index.st_mtim.tv_sec * 1000000000LL + index.st_mtim.tv_nsec,
                    pack.st_size ^ (pack.st_mtim.tv_sec * 1000000000LL + pack.st_mtim.tv_nsec)};
  static std::mutex mutex;
  static std::set<Checked> known;
  {
    std::lock_guard lock(mutex);
    if (known.count(key) != 0) return Ok();
  }
  Status status = CheckPack(index_path, pack_path, static_cast<std::uint64_t>(pack.st_size));
  if (!status.ok()) return status;
  std::lock_guard lock(mutex);
  known.insert(key);
  return Ok();
}

}  // namespace

Status CheckObjectPacks(const std::vector<std::string>& folders) {
  for (const std::string& folder : folders) {
    std::vector<std::string> indexes;
    std::error_code failed;
    for (std::filesystem::directory_iterator it(folder + "/pack", failed), end; !failed && it != end;
         it.increment(failed)) {
      const std::string name = it->path().filename().string();
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".idx") == 0) indexes.push_back(it->path().string());
    }
    for (const std::string& index_path : indexes) {
      Status checked = CheckOnce(index_path);
      if (!checked.ok()) return checked;
    }
  }
  return Ok();
}

}  // namespace tjr::source
