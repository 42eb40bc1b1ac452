#include "batch/folder_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "base/stop_point.h"

namespace tjr::batch {

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

DIR* OpenListing(int dir) {
  // A dup shares the file offset: start from the first entry whatever an
  // earlier listing of the same folder read.
  const int own = ::dup(dir);
  if (own < 0) return nullptr;
  DIR* listing = ::fdopendir(own);
  if (listing == nullptr) {
    ::close(own);
    return nullptr;
  }
  ::rewinddir(listing);
  return listing;
}

Fd OpenFolderAt(int dir, const std::string& name) {
  return Fd(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

bool RegularFileEquals(int dir, const std::string& name, std::string_view bytes) {
  Fd file(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!file.valid()) return false;
  struct stat info {};
  if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode) ||
      static_cast<std::size_t>(info.st_size) != bytes.size()) {
    return false;
  }
  std::string data(bytes.size() + 1, '\0');
  std::size_t have = 0;
  while (have < data.size()) {
    ssize_t n = ::read(file.get(), data.data() + have, data.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
  }
  return have == bytes.size() && std::string_view(data.data(), have) == bytes;
}

std::optional<Ownership> OwnershipOf(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return std::nullopt;
  return Ownership{info.st_uid, info.st_gid, info.st_mode & 07777};
}

std::optional<Ownership> OwnershipAt(int dir, const std::string& name) {
  struct stat info {};
  if (::fstatat(dir, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  return Ownership{info.st_uid, info.st_gid, info.st_mode & 07777};
}

namespace {

Diagnostic SystemError(const std::string& shown_as, const std::string& what, int error) {
  return AsInputError(MakeError(Location{InternSourceName(shown_as)}, "", what + ": " + std::strerror(error)));
}

}  // namespace

Status ApplyOwnership(int fd, const Ownership& owned, const std::string& shown_as) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return SystemError(shown_as, "cannot stat", errno);
  // The owner first: chown may clear the set-user-ID and set-group-ID bits
  // the mode then sets.
  if (::geteuid() == 0 && (info.st_uid != owned.uid || info.st_gid != owned.gid) &&
      ::fchown(fd, owned.uid, owned.gid) != 0) {
    return SystemError(shown_as, "cannot give it its owner " + std::to_string(owned.uid) + ":" +
                                     std::to_string(owned.gid), errno);
  }
  if (owned.mode && ::fchmod(fd, *owned.mode) != 0) return SystemError(shown_as, "cannot set its mode", errno);
  return Ok();
}

namespace {

// Writes all of `bytes` (a short count is not an error until write says
// why it stopped).
bool WriteAll(int fd, std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Status WriteFileAt(int dir, const std::string& name, std::string_view bytes, const std::string& shown_as,
                   const Ownership* owned) {
  Fd file(::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!file.valid()) return SystemError(shown_as, "cannot create", errno);
  auto failed = [&](const char* what) {
    const int error = errno;
    ::unlinkat(dir, name.c_str(), 0);
    return SystemError(shown_as, what, error);
  };
  if (!WriteAll(file.get(), bytes)) return failed("cannot write");
  if (owned != nullptr) {
    Status applied = ApplyOwnership(file.get(), *owned, shown_as);
    if (!applied.ok()) {
      ::unlinkat(dir, name.c_str(), 0);
      return applied;
    }
  }
  // Some file systems (NFS, FUSE, quotas) report a failed write at close.
  if (::close(file.release()) != 0) return failed("cannot write");
  return Ok();
}

Status CopyFileAt(int from, const std::string& name, int to, const std::string& shown_as) {
  Fd source(::openat(from, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!source.valid()) return SystemError(shown_as, "cannot open to copy", errno);
  struct stat info {};
  if (::fstat(source.get(), &info) != 0) return SystemError(shown_as, "cannot stat", errno);
  if (!S_ISREG(info.st_mode)) {
    return AsInputError(MakeError(Location{InternSourceName(shown_as)}, "",
                                  "cannot keep in the new tree: cannot be hard-linked and is not a regular file"));
  }
  Fd copy(::openat(to, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!copy.valid()) return SystemError(shown_as, "cannot create its copy", errno);
  auto failed = [&](const char* what) {
    const int error = errno;
    ::unlinkat(to, name.c_str(), 0);
    return SystemError(shown_as, what, error);
  };
  std::string buffer(std::size_t{1} << 16, '\0');
  for (;;) {
    ssize_t n = ::read(source.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return failed("cannot read to copy");
    if (n == 0) break;
    if (!WriteAll(copy.get(), std::string_view(buffer.data(), static_cast<std::size_t>(n)))) {
      return failed("cannot write its copy");
    }
  }
  Status applied = ApplyOwnership(copy.get(), Ownership{info.st_uid, info.st_gid, info.st_mode & 07777}, shown_as);
  if (!applied.ok()) {
    ::unlinkat(to, name.c_str(), 0);
    return applied;
  }
  const timespec times[2] = {info.st_atim, info.st_mtim};
  if (::futimens(copy.get(), times) != 0) return failed("cannot set its copy's times");
  if (::close(copy.release()) != 0) return failed("cannot write its copy");
  return Ok();
}

std::optional<std::string> RemoveTreeAt(int dir, const std::string& name) {
  // An explicit stack of open folders: a user's deep tree cannot exhaust
  // the call stack (the descriptors it takes are one per level).
  struct Level {
    Fd fd;
    DIR* listing;
    std::string name;  // in its parent
    bool made_writable = false;
  };
  if (::unlinkat(dir, name.c_str(), 0) == 0 || errno == ENOENT) return std::nullopt;
  const int unlink_error = errno;
  if (unlink_error != EISDIR && unlink_error != EPERM) return name + ": " + std::strerror(unlink_error);
  std::vector<Level> stack;
  std::optional<std::string> first_failure;
  auto path_of = [&](const std::string& entry) {
    std::string path;
    for (const Level& level : stack) path += level.name + "/";
    return path + entry;
  };
  auto failed = [&](const std::string& entry, int error) {
    if (!first_failure) first_failure = path_of(entry) + ": " + std::strerror(error);
  };
  auto open_level = [&](int parent, const std::string& entry) -> bool {
    Fd folder = OpenFolderAt(parent, entry);
    if (!folder.valid()) return false;
    DIR* listing = OpenListing(folder.get());
    if (listing == nullptr) return false;
    stack.push_back({std::move(folder), listing, entry});
    return true;
  };
  // A folder without write permission (a user's read-only folder, carried
  // into a tree that is now old) is given it, as the tree is tjrender's to
  // delete; root needs none.
  auto writable = [](int folder) {
    struct stat info {};
    return ::fstat(folder, &info) == 0 && ::fchmod(folder, (info.st_mode & 07777) | 0700) == 0;
  };
  if (!open_level(dir, name)) return name + ": " + std::strerror(unlink_error == EISDIR ? errno : unlink_error);
  while (!stack.empty()) {
    Level& level = stack.back();
    const dirent* entry = ::readdir(level.listing);
    if (entry == nullptr) {
      ::closedir(level.listing);
      const std::string done = level.name;
      stack.pop_back();
      const int parent = stack.empty() ? dir : stack.back().fd.get();
      bool removed = ::unlinkat(parent, done.c_str(), AT_REMOVEDIR) == 0;
      if (!removed && errno == EACCES && !stack.empty() && !stack.back().made_writable) {
        stack.back().made_writable = writable(parent);
        removed = ::unlinkat(parent, done.c_str(), AT_REMOVEDIR) == 0;
      }
      if (!removed && errno != ENOTEMPTY && errno != EEXIST) failed(done, errno);
      continue;
    }
    const std::string child = entry->d_name;
    if (child == "." || child == "..") continue;
    StopPoint("remove");
    if (::unlinkat(level.fd.get(), child.c_str(), 0) == 0) continue;
    if (errno == EACCES && !level.made_writable) {
      level.made_writable = writable(level.fd.get());
      if (level.made_writable && ::unlinkat(level.fd.get(), child.c_str(), 0) == 0) continue;
    }
    const int error = errno;
    if (error == EISDIR || error == EPERM || error == EACCES) {
      if (stack.size() < 4096 && open_level(level.fd.get(), child)) continue;
    }
    failed(child, error);
  }
  return first_failure;
}

}  // namespace tjr::batch
