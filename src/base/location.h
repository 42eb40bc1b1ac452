#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tjr {

/// Returns a pointer to an interned copy of `name`; the pointer stays valid
/// for the life of the process, so every node can carry its file cheaply.
const std::string* InternSourceName(std::string_view name);

/// Where a value came from: file, 1-based line and column (0 when unknown).
struct Location {
  const std::string* file = nullptr;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  bool known() const { return file != nullptr; }
  /// "FILE:LINE:COL", "FILE" when line is unknown, "<unknown>" without file.
  std::string ToString() const;
};

}  // namespace tjr
