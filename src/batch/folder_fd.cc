#include "batch/folder_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

Status WriteFileAt(int dir, const std::string& name, std::string_view bytes, const std::string& shown_as) {
  auto error = [&](const char* what) {
    return AsInputError(MakeError(Location{InternSourceName(shown_as)}, "", std::string(what) + ": " + std::strerror(errno)));
  };
  Fd file(::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!file.valid()) return error("cannot create");
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(file.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return error("cannot write");
    written += static_cast<std::size_t>(n);
  }
  if (::close(file.release()) != 0) return error("cannot write");
  return Ok();
}

void RemoveTreeAt(int dir, const std::string& name) {
  // An explicit stack of open folders: a user's deep tree cannot exhaust
  // the call stack (the descriptors it takes are one per level).
  struct Level {
    Fd fd;
    DIR* listing;
    std::string name;  // in its parent
  };
  if (::unlinkat(dir, name.c_str(), 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  std::vector<Level> stack;
  auto open_level = [&](int parent, const std::string& entry) -> bool {
    Fd folder = OpenFolderAt(parent, entry);
    if (!folder.valid()) return false;
    DIR* listing = OpenListing(folder.get());
    if (listing == nullptr) return false;
    stack.push_back({std::move(folder), listing, entry});
    return true;
  };
  if (!open_level(dir, name)) return;
  while (!stack.empty()) {
    Level& level = stack.back();
    const dirent* entry = ::readdir(level.listing);
    if (entry == nullptr) {
      ::closedir(level.listing);
      const std::string done = level.name;
      stack.pop_back();
      ::unlinkat(stack.empty() ? dir : stack.back().fd.get(), done.c_str(), AT_REMOVEDIR);
      continue;
    }
    const std::string child = entry->d_name;
    if (child == "." || child == "..") continue;
    StopPoint("remove");
    if (::unlinkat(level.fd.get(), child.c_str(), 0) == 0) continue;
    if (errno == EISDIR || errno == EPERM) {
      if (stack.size() < 4096) open_level(level.fd.get(), child);
    }
  }
}

}  // namespace tjr::batch
