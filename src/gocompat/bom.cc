#include "gocompat/bom.h"

#include <cstdint>

#include "gocompat/utf8.h"

namespace tjr::gocompat {

std::optional<std::string> DecodeUtf16WithBom(std::string_view bytes) {
  if (bytes.size() < 2) return std::nullopt;
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(bytes[i]); };
  bool little;
  if (byte(0) == 0xFF && byte(1) == 0xFE) {
    little = true;
  } else if (byte(0) == 0xFE && byte(1) == 0xFF) {
    little = false;
  } else {
    return std::nullopt;
  }
  const auto unit = [&](std::size_t i) -> char32_t {
    return little ? (byte(i) | byte(i + 1) << 8) : (byte(i) << 8 | byte(i + 1));
  };
  std::string out;
  out.reserve(bytes.size());
  std::size_t at = 2;
  while (at + 1 < bytes.size()) {
    const char32_t first = unit(at);
    at += 2;
    // x/text pairs any surrogate with a following low surrogate: a valid
    // pair gives its code point, two low surrogates one U+FFFD.
    if (first >= 0xD800 && first < 0xE000 && at + 1 < bytes.size()) {
      const char32_t second = unit(at);
      if (second >= 0xDC00 && second < 0xE000) {
        at += 2;
        AppendUtf8(first < 0xDC00 ? 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00) : kReplacementChar, &out);
        continue;
      }
    }
    AppendUtf8(first >= 0xD800 && first < 0xE000 ? kReplacementChar : first, &out);
  }
  if (at < bytes.size()) AppendUtf8(kReplacementChar, &out);  // a last odd byte
  return out;
}

}  // namespace tjr::gocompat
