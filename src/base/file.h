#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace tjr {

/// Reads a whole file ("-" reads stdin). Files over `max_bytes` are refused
/// before they are read, so a hostile input cannot exhaust memory.
Result<std::string> ReadFile(const std::string& path,
                             std::size_t max_bytes = std::size_t{64} << 20);

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, then rename(2). Leaves the file untouched when its bytes are
/// already equal, so timestamps only change with content.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace tjr
