#include "base/file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <iterator>

namespace tjr {
namespace {

Diagnostic FileError(const std::string& path, const std::string& what) {
  return AsInputError(
      MakeError(Location{InternSourceName(path)}, "", what + ": " + std::strerror(errno)));
}

}  // namespace

Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes) {
  if (path == "-") {
    std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (data.size() > max_bytes) {
      return AsInputError(MakeError(Location{InternSourceName("<stdin>")}, "",
                                     "input is larger than the limit of " +
                                         std::to_string(max_bytes) + " bytes"));
    }
    return data;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
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
  if (static_cast<std::size_t>(info.st_size) > max_bytes) {
    ::close(fd);
    return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                   "file is " + std::to_string(info.st_size) +
                                       " bytes, larger than the limit of " +
                                       std::to_string(max_bytes)));
  }
  std::string data;
  data.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      Diagnostic error = FileError(path, "cannot read");
      ::close(fd);
      return error;
    }
    if (n == 0) break;
    data.append(buffer, static_cast<std::size_t>(n));
    if (data.size() > max_bytes) {
      ::close(fd);
      return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                     "file grew past the limit of " +
                                         std::to_string(max_bytes) + " bytes"));
    }
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
