#include "base/file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace tjr {
namespace {

Diagnostic FileError(const std::string& path, const std::string& what) {
  return AsInputError(
      MakeError(Location{InternSourceName(path)}, "", what + ": " + std::strerror(errno)));
}

FileStamp StampOfStat(const struct stat& info) {
  FileStamp stamp;
  stamp.device = static_cast<std::uint64_t>(info.st_dev);
  stamp.inode = static_cast<std::uint64_t>(info.st_ino);
  stamp.size = static_cast<std::int64_t>(info.st_size);
  stamp.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
  stamp.ctime_ns = static_cast<std::int64_t>(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
  return stamp;
}

Diagnostic OverLimit(const std::string& name, std::size_t max_bytes) {
  return MakeTooLarge(Location{InternSourceName(name)}, "",
                      "input is larger than the limit of " + std::to_string(max_bytes) + " bytes (tjrender's limit per file)");
}

}  // namespace

std::optional<FileStamp> StampOf(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return StampOfStat(info);
}

Result<std::string> ReadDescriptor(int fd, const std::string& name, std::size_t max_bytes, std::size_t expected) {
  std::string data;
  data.reserve(expected);
  char buffer[1 << 16];
  for (;;) {
    // Never more than one byte past the limit: enough to know it is passed.
    const std::size_t want = std::min(sizeof buffer, max_bytes + 1 - data.size());
    ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return FileError(name, "cannot read");
    }
    if (n == 0) break;
    data.append(buffer, static_cast<std::size_t>(n));
    if (data.size() > max_bytes) return OverLimit(name, max_bytes);
  }
  return data;
}

Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes, FileStamp* stamp) {
  if (path == "-") return ReadDescriptor(STDIN_FILENO, "<stdin>", max_bytes);
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
  // forever. It changes nothing for the regular files that are read.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return FileError(path, "cannot open");
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    Diagnostic error = FileError(path, "cannot stat");
    ::close(fd);
    return error;
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd);
    return AsInputError(
        MakeError(Location{InternSourceName(path)}, "", "is a directory, not a file"));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                  std::string("is not a regular file but a ") +
                                      (S_ISFIFO(info.st_mode) ? "FIFO" : S_ISSOCK(info.st_mode) ? "socket" : "device") +
                                      ", which is not read (pipe its contents to `-` instead)"));
  }
  if (static_cast<std::size_t>(info.st_size) > max_bytes) {
    ::close(fd);
    return MakeTooLarge(Location{InternSourceName(path)}, "",
                        "file is " + std::to_string(info.st_size) + " bytes, larger than the limit of " +
                            std::to_string(max_bytes) + " (tjrender's limit per file)");
  }
  Result<std::string> data = ReadDescriptor(fd, path, max_bytes, static_cast<std::size_t>(info.st_size));
  if (!data.ok()) {
    ::close(fd);
    Diagnostic error = data.take_error();
    if (error.message.rfind("input is larger", 0) == 0) {
      error = MakeTooLarge(error.location, "", "file grew past the limit of " + std::to_string(max_bytes) +
                                                   " bytes (tjrender's limit per file) while it was read");
    }
    return error;
  }
  if (stamp != nullptr) {
    // The same file, unchanged from before the read to after it: the bytes
    // are one version of it, not a write caught half done.
    struct stat after {};
    const bool same = ::fstat(fd, &after) == 0 && StampOfStat(after) == StampOfStat(info) &&
                      static_cast<std::int64_t>(data->size()) == static_cast<std::int64_t>(info.st_size);
    if (!same) {
      ::close(fd);
      Diagnostic error = AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                                "changed while tjrender was reading it (its size or modification "
                                                "time moved during the read: something was writing it); run "
                                                "tjrender again once nothing writes to it"));
      error.rule = kRuleInputChanged;
      return error;
    }
    *stamp = StampOfStat(info);
  }
  ::close(fd);
  return data;
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  auto existing = ReadFile(path, bytes.size() + 1);
  if (existing.ok() && *existing == bytes) return Ok();

  std::string temp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return FileError(path, "cannot create a temporary file beside");
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      Diagnostic error = FileError(path, "cannot write");
      ::close(fd);
      ::unlink(temp.c_str());
      return error;
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600; output files get the usual 0644 less the umask.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0644 & ~mask);
  if (::close(fd) != 0 || ::rename(temp.c_str(), path.c_str()) != 0) {
    Diagnostic error = FileError(path, "cannot replace");
    ::unlink(temp.c_str());
    return error;
  }
  return Ok();
}

}  // namespace tjr
