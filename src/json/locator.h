#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/location.h"

namespace tjr::json {

/// Turns byte offsets into 1-based line and column (columns count code
/// points, so a multi-byte character is one column). Queries in increasing
/// offset order cost O(1) amortised; an earlier offset rescans from the top.
/// Lines count from `first_line`: the line of text[0] in the file it was
/// cut from.
class Locator {
 public:
  Locator(std::string_view text, const std::string* file, std::uint32_t first_line = 1)
      : text_(text), file_(file), first_line_(first_line), line_(first_line) {}

  Location At(std::size_t offset);
  const std::string* file() const { return file_; }

 private:
  std::string_view text_;
  const std::string* file_;
  std::uint32_t first_line_;
  std::size_t offset_ = 0;
  std::uint32_t line_;
  std::uint32_t column_ = 1;
};

}  // namespace tjr::json
