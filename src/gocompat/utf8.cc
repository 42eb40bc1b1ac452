#include "gocompat/utf8.h"

#include <cstdint>
#include <cstring>

namespace tjr::gocompat {
namespace {

bool IsContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Length of the leading ASCII run of `text`. Nearly every string a manifest
// holds is ASCII; eight bytes a step keeps the checks on the render path cheap.
std::size_t AsciiPrefix(std::string_view text) {
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, sizeof word);
    if ((word & 0x8080808080808080ULL) != 0) break;
  }
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  return i;
}

}  // namespace

Rune DecodeRune(std::string_view text) {
  if (text.empty()) return {kReplacementChar, 0};
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char b0 = s[0];
  if (b0 < 0x80) return {b0, 1};
  const Rune invalid{kReplacementChar, 1};
  // The accepted range of the second byte depends on the first: this is what
  // rules out overlong forms, surrogates and values above U+10FFFF.
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  std::size_t size = 0;
  char32_t value = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    size = 2;
    value = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    size = 3;
    value = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    size = 4;
    value = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return invalid;
  }
  if (text.size() < size) return invalid;
  if (s[1] < lo || s[1] > hi) return invalid;
  value = (value << 6) | (s[1] & 0x3F);
  for (std::size_t i = 2; i < size; ++i) {
    if (!IsContinuation(s[i])) return invalid;
    value = (value << 6) | (s[i] & 0x3F);
  }
  return {value, size};
}

Rune DecodeLastRune(std::string_view text) {
  if (text.empty()) return {kReplacementChar, 0};
  // A sequence is at most four bytes: look back over continuation bytes no
  // further than that, then decode forwards; it must end exactly at the end.
  std::size_t start = text.size() - 1;
  const std::size_t limit = text.size() >= 4 ? text.size() - 4 : 0;
  while (start > limit && IsContinuation(static_cast<unsigned char>(text[start]))) --start;
  const Rune rune = DecodeRune(text.substr(start));
  if (start + rune.size != text.size()) return {kReplacementChar, 1};
  return rune;
}

bool IsValidUtf8(std::string_view text) {
  std::size_t i = AsciiPrefix(text);
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const Rune rune = DecodeRune(text.substr(i));
    if (IsInvalid(rune)) return false;
    i += rune.size;
  }
  return true;
}

std::string CoerceToValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);  // the common case: one copy
  std::string out;
  out.reserve(text.size() + 8);
  std::size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      out += text[i++];
      continue;
    }
    const Rune rune = DecodeRune(text.substr(i));
    if (IsInvalid(rune)) {
      AppendUtf8(kReplacementChar, &out);
    } else {
      out.append(text.substr(i, rune.size));
    }
    i += rune.size;
  }
  return out;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool IsUnicodeSpace(char32_t c) {
  switch (c) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

std::string_view TrimLeftUnicodeSpace(std::string_view text) {
  while (!text.empty()) {
    const Rune rune = DecodeRune(text);
    if (IsInvalid(rune) || !IsUnicodeSpace(rune.value)) break;
    text.remove_prefix(rune.size);
  }
  return text;
}

}  // namespace tjr::gocompat
