#pragma once

#include <dirent.h>
#include <sys/types.h>

#include <optional>
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

/// The owner and permission bits an entry of a new tree takes from the one
/// it replaces (or from the folder holding it, for the owner of a new one).
struct Ownership {
  uid_t uid = 0;
  gid_t gid = 0;
  std::optional<mode_t> mode;  ///< unset: as created (the umask applied)
};

/// The ownership of the open `fd` (its mode included), or nothing.
std::optional<Ownership> OwnershipOf(int fd);
/// The ownership of `name` in `dir` (no link followed), or nothing.
std::optional<Ownership> OwnershipAt(int dir, const std::string& name);

/// Gives the open `fd` the owner (only as root: nobody else may give a file
/// away) and the mode of `owned`; every failure is an error naming
/// `shown_as`.
Status ApplyOwnership(int fd, const Ownership& owned, const std::string& shown_as);

/// Creates the file `name` in `dir` (no link followed) holding `bytes`,
/// with `owned` applied when given. Every failure (open, a short or failed
/// write, close: ENOSPC, EIO, EFBIG, ENAMETOOLONG) is an error naming
/// `shown_as` and the system's reason, and removes what was created.
Status WriteFileAt(int dir, const std::string& name, std::string_view bytes, const std::string& shown_as,
                   const Ownership* owned = nullptr);

/// Copies the regular file `name` of `from` into `to` (which must not hold
/// it) with its bytes, owner, mode and modification time: the entry of an
/// old tree that cannot be hard-linked into the new one (an immutable file,
/// one with the most links the file system allows).
Status CopyFileAt(int from, const std::string& name, int to, const std::string& shown_as);

/// Removes `name` inside `dir` and, when it is a real folder, everything in
/// it, never following a link (a folder without write permission is given
/// it first). What cannot be removed stays; returns the first such entry
/// (relative to `dir`) and the reason, or nothing when all went.
std::optional<std::string> RemoveTreeAt(int dir, const std::string& name);

}  // namespace tjr::batch
