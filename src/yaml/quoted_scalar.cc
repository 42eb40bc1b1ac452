#include "yaml/quoted_scalar.h"

#include <cstdint>

#include "gocompat/utf8.h"

namespace tjr::yaml::input {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The length of the line break at `at` (goyaml is_break: CR, LF, CR LF,
// NEL, LS, PS), 0 when there is none.
std::size_t BreakLength(std::string_view text, std::size_t at) {
  if (at >= text.size()) return 0;
  const char c = text[at];
  if (c == '\r') return at + 1 < text.size() && text[at + 1] == '\n' ? 2 : 1;
  if (c == '\n') return 1;
  const std::string_view rest = text.substr(at);
  if (rest.starts_with("\xC2\x85")) return 2;
  if (rest.starts_with("\xE2\x80\xA8") || rest.starts_with("\xE2\x80\xA9")) return 3;
  return 0;
}

// goyaml read_line: CR, LF, CR LF and NEL become "\n"; LS and PS stay.
void AppendBreak(std::string_view text, std::size_t at, std::size_t length, std::string* out) {
  if (length == 3) {
    out->append(text.substr(at, 3));
  } else {
    out->push_back('\n');
  }
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One escape after a backslash at `at` (the escaped character there, not a
// line break); advances `at` past it. For what goyaml refuses, its message.
const char* AppendEscape(std::string_view text, std::size_t* at, std::string* out) {
  const char c = text[*at];
  ++*at;
  switch (c) {
    case '0': out->push_back('\0'); return nullptr;
    case 'a': out->push_back('\x07'); return nullptr;
    case 'b': out->push_back('\x08'); return nullptr;
    case 't': case '\t': out->push_back('\t'); return nullptr;
    case 'n': out->push_back('\n'); return nullptr;
    case 'v': out->push_back('\x0B'); return nullptr;
    case 'f': out->push_back('\x0C'); return nullptr;
    case 'r': out->push_back('\r'); return nullptr;
    case 'e': out->push_back('\x1B'); return nullptr;
    case ' ': out->push_back(' '); return nullptr;
    case '"': out->push_back('"'); return nullptr;
    case '\'': out->push_back('\''); return nullptr;
    case '\\': out->push_back('\\'); return nullptr;
    case 'N': out->append("\xC2\x85"); return nullptr;
    case '_': out->append("\xC2\xA0"); return nullptr;
    case 'L': out->append("\xE2\x80\xA8"); return nullptr;
    case 'P': out->append("\xE2\x80\xA9"); return nullptr;
    case 'x': case 'u': case 'U': {
      const std::size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
      constexpr const char* kNotHex = "did not find expected hexdecimal number";
      if (text.size() - *at < digits) return kNotHex;
      std::uint32_t code = 0;
      for (std::size_t i = 0; i < digits; ++i) {
        const int digit = HexDigit(text[*at + i]);
        if (digit < 0) return kNotHex;
        code = code << 4 | static_cast<std::uint32_t>(digit);
      }
      if ((code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return "found invalid Unicode character escape code";
      *at += digits;
      gocompat::AppendUtf8(code, out);
      return nullptr;
    }
    default:
      return "found unknown escape character";
  }
}

}  // namespace

std::optional<std::string> DecodeQuotedScalar(std::string_view text, char quote, std::string* error) {
  const bool single = quote == '\'';
  std::string value;
  value.reserve(text.size());
  std::string whitespaces;
  std::string leading_break;
  std::string trailing_breaks;
  std::size_t at = 0;
  while (true) {
    bool leading_blanks = false;
    // The characters up to a blank or a break.
    while (at < text.size() && !IsBlank(text[at]) && BreakLength(text, at) == 0) {
      const char c = text[at];
      if (single && c == '\'') {
        if (at + 1 < text.size() && text[at + 1] == '\'') {
          value.push_back('\'');
          at += 2;
          continue;
        }
        *error = "found the closing quote before the end of the scalar";
        return std::nullopt;
      }
      if (!single && c == '"') {
        *error = "found the closing quote before the end of the scalar";
        return std::nullopt;
      }
      if (!single && c == '\\') {
        if (at + 1 >= text.size()) {
          *error = "found unexpected end of stream";
          return std::nullopt;
        }
        if (const std::size_t length = BreakLength(text, at + 1); length != 0) {
          // An escaped line break: it and the next line's indentation go.
          at += 1 + length;
          leading_blanks = true;
          break;
        }
        ++at;
        if (const char* refused = AppendEscape(text, &at, &value); refused != nullptr) {
          *error = refused;
          return std::nullopt;
        }
        continue;
      }
      value.push_back(c);
      ++at;
    }
    if (at >= text.size() && !leading_blanks) break;
    // Blanks and breaks: kept between words of a line, folded across lines.
    while (at < text.size()) {
      if (IsBlank(text[at])) {
        if (!leading_blanks) whitespaces.push_back(text[at]);
        ++at;
        continue;
      }
      const std::size_t length = BreakLength(text, at);
      if (length == 0) break;
      if (!leading_blanks) {
        whitespaces.clear();
        AppendBreak(text, at, length, &leading_break);
        leading_blanks = true;
      } else {
        AppendBreak(text, at, length, &trailing_breaks);
      }
      at += length;
    }
    if (leading_blanks) {
      if (!leading_break.empty() && leading_break[0] == '\n') {
        if (trailing_breaks.empty()) {
          value.push_back(' ');
        } else {
          value += trailing_breaks;
        }
      } else {
        value += leading_break;
        value += trailing_breaks;
      }
      leading_break.clear();
      trailing_breaks.clear();
    } else {
      value += whitespaces;
      whitespaces.clear();
    }
    if (at >= text.size()) break;
  }
  return value;
}

}  // namespace tjr::yaml::input
