#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace tjr {

/// What tells one version of a file on disk from another, as Git's index
/// tells them (fstat: device, inode, size, change and modification times).
struct FileStamp {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

/// The rule id of "FILE changed while tjrender was reading it".
inline constexpr char kRuleInputChanged[] = "input-changed";

/// The stamp of the file `path` names (following links), or nothing when it
/// cannot be stat'ed.
std::optional<FileStamp> StampOf(const std::string& path);

/// Reads a whole file ("-" reads stdin). Files over `max_bytes` are refused
/// before they are read, so a hostile input cannot exhaust memory; stdin is
/// read in chunks and refused as soon as it passes the limit. Only regular
/// files are read: a FIFO, socket or device named as a path is refused
/// without blocking (stdin may be anything). With `stamp`, it receives the
/// file's stamp taken before reading; a file whose stamp changed while it
/// was read is an error (rule kRuleInputChanged).
Result<std::string> ReadFile(const std::string& path,
                             std::size_t max_bytes = std::size_t{64} << 20,
                             FileStamp* stamp = nullptr);

/// Reads what remains of the open descriptor `fd` (a pipe, a terminal, a
/// file), at most `max_bytes`: past that it stops reading and returns an
/// error naming `name`. `expected` bytes are reserved up front.
Result<std::string> ReadDescriptor(int fd, const std::string& name, std::size_t max_bytes,
                                   std::size_t expected = 0);

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, then rename(2). Leaves the file untouched when its bytes are
/// already equal, so timestamps only change with content.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace tjr
