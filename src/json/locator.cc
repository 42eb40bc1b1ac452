#include "json/locator.h"

#include <cstring>

namespace tjr::json {

Location Locator::At(std::size_t offset) {
  if (offset > text_.size()) offset = text_.size();
  if (offset < offset_) {
    offset_ = 0;
    line_ = first_line_;
    column_ = 1;
  }
  const char* p = text_.data() + offset_;
  const char* const target = text_.data() + offset;
  // Skip whole lines with memchr; only the last line's bytes are counted.
  while (const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(target - p))) {
    p = static_cast<const char*>(nl) + 1;
    ++line_;
    column_ = 1;
  }
  for (; p < target; ++p) {
    if ((static_cast<unsigned char>(*p) & 0xC0) != 0x80) ++column_;
  }
  offset_ = offset;
  return Location{file_, line_, column_};
}

}  // namespace tjr::json
