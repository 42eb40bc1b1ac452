#include "base/display.h"

#include <cstddef>

namespace tjr {
namespace {

// The length of the UTF-8 sequence at text[i] and its code point; length 0
// for a byte that starts no valid sequence (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF).
struct Sequence {
  std::size_t length = 0;
  char32_t code_point = 0;
};

Sequence DecodeAt(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return {1, lead};
  std::size_t length = 0;
  char32_t value = 0;
  char32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, value = lead & 0x1F, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, value = lead & 0x0F, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, value = lead & 0x07, minimum = 0x10000;
  } else {
    return {};
  }
  if (i + length > text.size()) return {};
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {};
    value = (value << 6) | (byte(i + k) & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {};
  return {length, value};
}

// Code points a terminal acts on or that reorder what is shown: C0 and C1
// controls, DEL, the line and paragraph separators, the bidirectional
// embeddings, overrides and isolates ("Trojan Source", CVE-2021-42574).
bool Unsafe(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

void AppendEscape(unsigned char c, std::string* out) {
  switch (c) {
    case '\a': *out += "\\a"; return;
    case '\b': *out += "\\b"; return;
    case '\t': *out += "\\t"; return;
    case '\n': *out += "\\n"; return;
    case '\v': *out += "\\v"; return;
    case '\f': *out += "\\f"; return;
    case '\r': *out += "\\r"; return;
    default: break;
  }
  *out += '\\';
  *out += static_cast<char>('0' + (c >> 6));
  *out += static_cast<char>('0' + ((c >> 3) & 7));
  *out += static_cast<char>('0' + (c & 7));
}

// Appends `text` with every unsafe byte escaped; `quote` also escapes '"'
// and '\\', for a name between quotes.
void AppendEscaped(std::string_view text, bool quote, std::string* out) {
  std::size_t i = 0;
  while (i < text.size()) {
    const Sequence next = DecodeAt(text, i);
    if (next.length == 0) {
      AppendEscape(static_cast<unsigned char>(text[i++]), out);
      continue;
    }
    if (Unsafe(next.code_point)) {
      for (std::size_t k = 0; k < next.length; ++k) AppendEscape(static_cast<unsigned char>(text[i + k]), out);
    } else if (quote && (text[i] == '"' || text[i] == '\\')) {
      *out += '\\';
      *out += text[i];
    } else {
      out->append(text.substr(i, next.length));
    }
    i += next.length;
  }
}

}  // namespace

bool NeedsQuoting(std::string_view name) {
  if (name.starts_with("::")) return true;
  std::size_t i = 0;
  while (i < name.size()) {
    const Sequence next = DecodeAt(name, i);
    if (next.length == 0 || Unsafe(next.code_point) || name[i] == '"' || name[i] == '\\') return true;
    i += next.length;
  }
  return false;
}

std::string QuotedName(std::string_view name) {
  if (!NeedsQuoting(name)) return std::string(name);
  std::string out = "\"";
  AppendEscaped(name, /*quote=*/true, &out);
  out += '"';
  return out;
}

std::string EscapedForDisplay(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AppendEscaped(text, /*quote=*/false, &out);
  return out;
}

std::string PercentEncodedUnsafe(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const Sequence next = DecodeAt(text, i);
    const std::size_t length = next.length == 0 ? 1 : next.length;
    if (next.length == 0 || Unsafe(next.code_point)) {
      for (std::size_t k = 0; k < length; ++k) {
        const auto c = static_cast<unsigned char>(text[i + k]);
        out += '%';
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
      }
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string EscapedLine(std::string_view text) {
  if (!text.starts_with("::")) return EscapedForDisplay(text);
  return "\\072" + EscapedForDisplay(text.substr(1));
}

}  // namespace tjr
