#pragma once

#include <dirent.h>

#include <string>
#include <string_view>

#include "base/diagnostic.h"

// File-system operations relative to an open folder (openat, linkat,
// unlinkat with O_NOFOLLOW and AT_SYMLINK_NOFOLLOW): a symbolic link inside
// the folder is never followed, so nothing outside it is ever read as its
// content, written or deleted.
namespace tjr::batch {

/// An owned file descriptor (-1: none).
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

/// A listing of the open folder `dir` from its first entry (on a
/// descriptor of its own; close it with closedir), or nullptr.
DIR* OpenListing(int dir);

/// The folder `name` inside `dir`, opened without following a link; an
/// invalid Fd with errno set when it cannot be (ELOOP or ENOTDIR: not a
/// folder).
Fd OpenFolderAt(int dir, const std::string& name);

/// The bytes of the regular file `name` inside `dir` when it holds exactly
/// `size` bytes (no link followed, no FIFO opened for long), else nothing.
bool RegularFileEquals(int dir, const std::string& name, std::string_view bytes);

/// Creates the file `name` in `dir` (no link followed) holding `bytes`.
Status WriteFileAt(int dir, const std::string& name, std::string_view bytes, const std::string& shown_as);

/// Removes `name` inside `dir` and, when it is a real folder, everything in
/// it, never following a link. Best effort: what cannot be removed stays.
void RemoveTreeAt(int dir, const std::string& name);

}  // namespace tjr::batch
