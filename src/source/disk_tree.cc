#include "source/disk_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

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

}  // namespace

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
  return ReadFile(path, max_bytes);
}

}  // namespace tjr::source
