#include "typed/go_text.h"

#include <cmath>

#include "doc/number_format.h"

namespace tjr::typed {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

void AppendUtf8(char32_t rune, std::string* out) {
  if (rune < 0x80) {
    *out += static_cast<char>(rune);
  } else if (rune < 0x800) {
    *out += static_cast<char>(0xC0 | (rune >> 6));
    *out += static_cast<char>(0x80 | (rune & 0x3F));
  } else if (rune < 0x10000) {
    *out += static_cast<char>(0xE0 | (rune >> 12));
    *out += static_cast<char>(0x80 | ((rune >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (rune & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (rune >> 18));
    *out += static_cast<char>(0x80 | ((rune >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((rune >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (rune & 0x3F));
  }
}

bool IsUnicodeSpace(char32_t rune) {
  switch (rune) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
    case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return rune >= 0x2000 && rune <= 0x200A;
  }
}

// The rune ending at `end` (a suffix decode, as utf8.DecodeLastRuneInString).
DecodedRune DecodeLastRune(std::string_view text) {
  std::size_t start = text.size() - 1;
  std::size_t limit = text.size() >= 4 ? text.size() - 4 : 0;
  while (start > limit && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  DecodedRune decoded = DecodeRune(text.substr(start));
  if (start + decoded.width != text.size()) return {kReplacement, 1};
  return decoded;
}

}  // namespace

DecodedRune DecodeRune(std::string_view text) {
  if (text.empty()) return {kReplacement, 0};
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char first = byte(0);
  if (first < 0x80) return {first, 1};
  std::size_t width;
  char32_t rune;
  char32_t minimum;
  if (first >= 0xC2 && first <= 0xDF) {
    width = 2, rune = first & 0x1F, minimum = 0x80;
  } else if (first >= 0xE0 && first <= 0xEF) {
    width = 3, rune = first & 0x0F, minimum = 0x800;
  } else if (first >= 0xF0 && first <= 0xF4) {
    width = 4, rune = first & 0x07, minimum = 0x10000;
  } else {
    return {kReplacement, 1};
  }
  if (text.size() < width) return {kReplacement, 1};
  for (std::size_t i = 1; i < width; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return {kReplacement, 1};
    rune = (rune << 6) | (byte(i) & 0x3F);
  }
  if (rune < minimum || rune > 0x10FFFF || (rune >= 0xD800 && rune <= 0xDFFF)) {
    return {kReplacement, 1};
  }
  return {rune, width};
}

std::string CoerceUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    DecodedRune decoded = DecodeRune(text);
    if (decoded.rune == kReplacement && decoded.width == 1) {
      AppendUtf8(kReplacement, &out);
    } else {
      out.append(text.substr(0, decoded.width));
    }
    text.remove_prefix(decoded.width);
  }
  return out;
}

bool JsonStringHasEscapes(std::string_view text) {
  while (!text.empty()) {
    DecodedRune decoded = DecodeRune(text);
    char32_t r = decoded.rune;
    if (r == kReplacement && decoded.width == 1) return true;  // written as \ufffd
    if (r < 0x20 || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == 0x2028 ||
        r == 0x2029) {
      return true;
    }
    text.remove_prefix(decoded.width);
  }
  return false;
}

std::string_view TrimUnicodeSpace(std::string_view text) {
  while (!text.empty()) {
    DecodedRune decoded = DecodeRune(text);
    if (!IsUnicodeSpace(decoded.rune) || decoded.width == 0) break;
    text.remove_prefix(decoded.width);
  }
  while (!text.empty()) {
    DecodedRune decoded = DecodeLastRune(text);
    if (!IsUnicodeSpace(decoded.rune)) break;
    text.remove_suffix(decoded.width);
  }
  return text;
}

Result<std::string> JsonNumberText(const doc::Node& number) {
  if (number.is_int()) return std::to_string(number.int_value());
  double value = number.float_value();
  if (std::isnan(value)) return MakeError(number.location(), "", "json: unsupported value: NaN");
  if (std::isinf(value)) {
    return MakeError(number.location(), "",
                     value > 0 ? "json: unsupported value: +Inf" : "json: unsupported value: -Inf");
  }
  return doc::FormatFloatJson(value);
}

std::string FoldName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  while (!name.empty()) {
    DecodedRune decoded = DecodeRune(name);
    char32_t r = decoded.rune;
    if (r < 0x80) {
      out += static_cast<char>(r >= 'a' && r <= 'z' ? r - ('a' - 'A') : r);
    } else if (r == 0x212A) {
      out += 'K';
    } else if (r == 0x17F) {
      out += 'S';
    } else {
      // Other runes never fold onto the ASCII field names of API types.
      AppendUtf8(r, &out);
    }
    name.remove_prefix(decoded.width);
  }
  return out;
}

std::string GoTypeString(std::string_view qualified_name) {
  std::string out;
  std::size_t i = 0;
  while (i < qualified_name.size()) {
    char c = qualified_name[i];
    if (c == '[' || c == ']' || c == '*') {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = qualified_name.find_first_of("[]*", i);
    if (end == std::string_view::npos) end = qualified_name.size();
    std::string_view token = qualified_name.substr(i, end - i);
    std::size_t slash = token.rfind('/');
    out += slash == std::string_view::npos ? token : token.substr(slash + 1);
    i = end;
  }
  return out;
}

std::string_view GoTypeName(std::string_view qualified_name) {
  std::size_t slash = qualified_name.rfind('/');
  std::size_t from = slash == std::string_view::npos ? 0 : slash + 1;
  std::size_t dot = qualified_name.find('.', from);
  return dot == std::string_view::npos ? qualified_name.substr(from)
                                       : qualified_name.substr(dot + 1);
}

}  // namespace tjr::typed
