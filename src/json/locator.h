#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/location.h"

namespace tjr::json {

/// Turns byte offsets into 1-based line and column (columns count code
/// points, so a multi-byte character is one column). Queries in increasing
/// offset order cost O(1) amortised; an earlier offset rescans from the top.
class Locator {
 public:
  Locator(std::string_view text, const std::string* file) : text_(text), file_(file) {}

  Location At(std::size_t offset);
  const std::string* file() const { return file_; }

 private:
  std::string_view text_;
  const std::string* file_;
  std::size_t offset_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

}  // namespace tjr::json
