#pragma once

#include <cstddef>
#include <string_view>

// Byte-level character classes of goyaml's emitter (yamlprivateh.go), on
// valid UTF-8. `i` indexes the first byte of a character; bytes past the end
// read as NUL, as the emitter's buffers do.
namespace tjr::yaml::detail {

inline unsigned char ByteAt(std::string_view s, std::size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

/// Length of the UTF-8 sequence a lead byte starts.
inline std::size_t CharWidth(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  return 4;
}

inline bool IsSpaceAt(std::string_view s, std::size_t i) { return ByteAt(s, i) == ' '; }

inline bool IsBlankAt(std::string_view s, std::size_t i) {
  unsigned char c = ByteAt(s, i);
  return c == ' ' || c == '\t';
}

/// LF, CR, NEL (U+0085), LS (U+2028) or PS (U+2029).
inline bool IsBreakAt(std::string_view s, std::size_t i) {
  unsigned char c = ByteAt(s, i);
  if (c == '\n' || c == '\r') return true;
  if (c == 0xC2) return ByteAt(s, i + 1) == 0x85;
  if (c == 0xE2) {
    return ByteAt(s, i + 1) == 0x80 && (ByteAt(s, i + 2) == 0xA8 || ByteAt(s, i + 2) == 0xA9);
  }
  return false;
}

inline bool IsBlankOrBreakOrNulAt(std::string_view s, std::size_t i) {
  return IsBlankAt(s, i) || IsBreakAt(s, i) || ByteAt(s, i) == 0;
}

/// Characters the emitter may write unescaped: LF, printable ASCII and the
/// BMP outside C1 controls, surrogates, U+FEFF, U+FFFE and U+FFFF. Everything
/// beyond the BMP counts as unprintable.
inline bool IsPrintableAt(std::string_view s, std::size_t i) {
  unsigned char c = ByteAt(s, i);
  if (c < 0x80) return c == 0x0A || (c >= 0x20 && c <= 0x7E);
  unsigned char c1 = ByteAt(s, i + 1);
  if (c == 0xC2) return c1 >= 0xA0;
  if (c > 0xC2 && c < 0xED) return true;
  if (c == 0xED) return c1 < 0xA0;
  if (c == 0xEE) return true;
  if (c == 0xEF) {
    unsigned char c2 = ByteAt(s, i + 2);
    return !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF));
  }
  return false;
}

/// Decodes the character at `i` (valid UTF-8 assumed).
inline char32_t DecodeAt(std::string_view s, std::size_t i) {
  unsigned char c = ByteAt(s, i);
  std::size_t width = CharWidth(c);
  char32_t value = width == 1 ? c : width == 2 ? (c & 0x1F) : width == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < width; ++k) value = (value << 6) | (ByteAt(s, i + k) & 0x3F);
  return value;
}

}  // namespace tjr::yaml::detail
