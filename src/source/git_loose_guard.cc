#include "source/git_loose_guard.h"

#include <dirent.h>
#include <fcntl.h>
#include <git2/sys/odb_backend.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace tjr::source {
namespace {

// libgit2's loose.c: the bytes its header read takes from the file, and
// the inflated bytes it wants from them.
constexpr std::size_t kHeaderRead = 1024;
constexpr std::size_t kHeaderWant = 64;
constexpr std::size_t kChunk = 64 * 1024;

Diagnostic Damaged(const std::string& what) { return AsInputError(MakeError(Location{}, "", what)); }

// The size a loose object's header ("blob 123\0") declares, or -1.
long long DeclaredSize(std::string_view head) {
  const std::size_t space = head.find(' ');
  const std::size_t nul = head.find('\0');
  if (space == std::string_view::npos || nul == std::string_view::npos || space > nul || nul == space + 1) return -1;
  long long size = 0;
  for (char c : head.substr(space + 1, nul - space - 1)) {
    if (c < '0' || c > '9' || size > (1LL << 50)) return -1;
    size = size * 10 + (c - '0');
  }
  return size;
}

bool LooksZlib(std::string_view bytes) {
  if (bytes.size() < 2) return false;
  const auto b0 = static_cast<unsigned char>(bytes[0]);
  const auto b1 = static_cast<unsigned char>(bytes[1]);
  return (b0 & 0x8f) == 0x08 && ((b0 << 8) | b1) % 31 == 0;
}

// A loose object's zlib stream fed in pieces, as libgit2 will inflate it:
// to its end (whole) or to the header's 64 bytes.
class LooseCheck {
 public:
  explicit LooseCheck(bool whole) : want_(whole ? ~std::uint64_t{0} : kHeaderWant) {
    ok_ = inflateInit(&stream_) == Z_OK;
  }
  LooseCheck(const LooseCheck&) = delete;
  LooseCheck& operator=(const LooseCheck&) = delete;
  ~LooseCheck() {
    if (ok_) inflateEnd(&stream_);
  }

  // False once no more input is wanted (the stream ended, or the header
  // is in).
  bool Feed(std::string_view input, Status* status) {
    if (!ok_) {
      *status = Damaged("cannot inflate: out of memory");
      return false;
    }
    if (first_) {
      first_ = false;
      // libgit2 would read a file without a zlib header in the pack-like
      // format Git wrote briefly in 2005 and reads no more.
      if (!LooksZlib(input)) {
        *status = Damaged("not zlib-compressed");
        return false;
      }
    }
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    stream_.avail_in = static_cast<uInt>(input.size());
    static thread_local unsigned char scratch[kChunk];
    while (produced_ < want_) {
      stream_.next_out = scratch;
      stream_.avail_out = static_cast<uInt>(std::min<std::uint64_t>(kChunk, want_ - produced_));
      const int result = inflate(&stream_, Z_NO_FLUSH);
      const std::size_t out = stream_.next_out - scratch;
      if (head_.size() < kHeaderWant) {
        head_.append(reinterpret_cast<const char*>(scratch), std::min(out, kHeaderWant - head_.size()));
      }
      produced_ += out;
      if (result == Z_STREAM_END) {
        ended_ = true;
        return false;
      }
      if (result == Z_BUF_ERROR || (out == 0 && stream_.avail_in == 0)) return true;  // input spent
      if (result != Z_OK) {
        *status = Damaged(std::string("its zlib stream is corrupt (") + (stream_.msg ? stream_.msg : "?") + ")");
        return false;
      }
    }
    return false;
  }

  // After the last Feed: what libgit2 would have been left waiting for.
  Status Finish() const {
    if (want_ == kHeaderWant) {
      if (!ended_ && produced_ < kHeaderWant) return Damaged("truncated: its zlib stream ends before the object's header");
      return Ok();
    }
    if (!ended_) return Damaged("truncated: its zlib stream ends early, after " + std::to_string(produced_) + " bytes");
    const long long declared = DeclaredSize(head_);
    if (declared < 0) return Damaged("no object header (TYPE SIZE NUL) at its start");
    const std::uint64_t header = head_.find('\0') + 1;
    if (produced_ != header + static_cast<std::uint64_t>(declared)) {
      return Damaged("its header says " + std::to_string(declared) + " bytes, its zlib stream holds " +
                     std::to_string(produced_ - header));
    }
    return Ok();
  }

 private:
  z_stream stream_{};
  bool ok_ = false;
  bool first_ = true;
  bool ended_ = false;
  std::uint64_t want_;
  std::uint64_t produced_ = 0;
  std::string head_;
};

}  // namespace

Status CheckLooseObjectBytes(std::string_view bytes, bool whole) {
  LooseCheck check(whole);
  Status status = Ok();
  check.Feed(whole ? bytes : bytes.substr(0, kHeaderRead), &status);
  if (!status.ok()) return status;
  return check.Finish();
}

namespace {

struct Guard {
  git_odb_backend parent;  // first: libgit2 passes &parent
  std::vector<std::string>* folders;
};

// GIT_PASSTHROUGH for libgit2's backends to read the object (or to find
// it elsewhere), or an error naming the file. Read in pieces: a large
// loose blob is never held twice.
int CheckFile(const std::string& path, bool whole) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return GIT_PASSTHROUGH;
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return GIT_PASSTHROUGH;
  }
  LooseCheck check(whole);
  Status status = Ok();
  std::string chunk(whole ? kChunk : kHeaderRead, '\0');
  std::size_t total = 0;
  for (;;) {
    // The header check sees what libgit2's header read sees: one read.
    const ssize_t n = ::read(fd, chunk.data(), whole ? chunk.size() : kHeaderRead - total);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    total += static_cast<std::size_t>(n);
    if (!check.Feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), &status)) break;
    if (!whole && total >= kHeaderRead) break;
  }
  ::close(fd);
  if (status.ok()) status = check.Finish();
  if (status.ok()) return GIT_PASSTHROUGH;
  git_error_set_str(GIT_ERROR_ODB, ("damaged loose object " + path + ": " + status.error().message).c_str());
  return GIT_ERROR;
}

int CheckId(git_odb_backend* backend, const git_oid* id, bool whole) {
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_fmt(hex, id);
  for (const std::string& folder : *reinterpret_cast<Guard*>(backend)->folders) {
    const std::string path = folder + "/" + std::string(hex, 2) + "/" + std::string(hex + 2, GIT_OID_HEXSZ - 2);
    const int result = CheckFile(path, whole);
    if (result != GIT_PASSTHROUGH) return result;
  }
  return GIT_PASSTHROUGH;
}

int Read(void** /*data*/, std::size_t* /*size*/, git_object_t* /*type*/, git_odb_backend* backend,
         const git_oid* id) {
  return CheckId(backend, id, /*whole=*/true);
}

int ReadHeader(std::size_t* /*size*/, git_object_t* /*type*/, git_odb_backend* backend, const git_oid* id) {
  return CheckId(backend, id, /*whole=*/false);
}

// Every loose file whose name starts with the `length` hex digits of
// `prefix` (libgit2 reads the one that matches, or says it is ambiguous).
int ReadPrefix(git_oid* /*full*/, void** /*data*/, std::size_t* /*size*/, git_object_t* /*type*/,
               git_odb_backend* backend, const git_oid* prefix, std::size_t length) {
  if (length >= GIT_OID_HEXSZ) return CheckId(backend, prefix, /*whole=*/true);
  if (length < 2) return GIT_PASSTHROUGH;
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_fmt(hex, prefix);
  const std::string rest(hex + 2, length - 2);
  for (const std::string& folder : *reinterpret_cast<Guard*>(backend)->folders) {
    const std::string dir = folder + "/" + std::string(hex, 2);
    DIR* listing = ::opendir(dir.c_str());
    if (listing == nullptr) continue;
    int result = GIT_PASSTHROUGH;
    while (const dirent* entry = ::readdir(listing)) {
      const std::string_view name = entry->d_name;
      if (name.size() != GIT_OID_HEXSZ - 2 || name.substr(0, rest.size()) != rest) continue;
      result = CheckFile(dir + "/" + std::string(name), /*whole=*/true);
      if (result != GIT_PASSTHROUGH) break;
    }
    ::closedir(listing);
    if (result != GIT_PASSTHROUGH) return result;
  }
  return GIT_PASSTHROUGH;
}

void Free(git_odb_backend* backend) {
  Guard* guard = reinterpret_cast<Guard*>(backend);
  delete guard->folders;
  delete guard;
}

}  // namespace

Status GuardLooseObjects(git_odb* odb, const std::vector<std::string>& folders) {
  auto* guard = new Guard{};
  if (git_odb_init_backend(&guard->parent, GIT_ODB_BACKEND_VERSION) != 0) {
    delete guard;
    return Damaged("cannot guard the object database");
  }
  guard->folders = new std::vector<std::string>(folders);
  guard->parent.read = Read;
  guard->parent.read_header = ReadHeader;
  guard->parent.read_prefix = ReadPrefix;
  guard->parent.free = Free;
  // Above libgit2's own backends (loose 1, packed 2) and the mempack the
  // staged tree adds (1000): every read asks the guard first.
  if (git_odb_add_backend(odb, &guard->parent, 2000) != 0) {
    Free(&guard->parent);
    return Damaged("cannot guard the object database: " + std::string(git_error_last() ? git_error_last()->message : "?"));
  }
  return Ok();
}

}  // namespace tjr::source
