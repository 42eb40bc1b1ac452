#include "gocompat/strconv.h"

#include <charconv>
#include <string>
#include <system_error>

#include "gocompat/utf8.h"

namespace tjr::gocompat {
namespace {

// unicode.IsPrint for the runes names and messages hold: the C0 and C1
// controls, DEL, and the format and separator characters Go escapes.
bool IsPrintable(char32_t rune) {
  if (rune < 0x20 || rune == 0x7F) return false;
  if (rune >= 0x80 && rune <= 0x9F) return false;
  return rune != 0xAD && rune != 0x2028 && rune != 0x2029 && rune != 0xFEFF;
}

void AppendHex(std::uint32_t value, int digits, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out->push_back(kHex[(value >> shift) & 0xF]);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
char Lower(char c) { return static_cast<char>(c | 0x20); }

// strconv's underscoreOK: underscores only between digits (or after a base
// prefix) and never last.
bool UnderscoresOk(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (Lower(s[1]) == 'b' || Lower(s[1]) == 'o' || Lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = Lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (IsDigit(c) || (hex && Lower(c) >= 'a' && Lower(c) <= 'f')) {
      saw = '0';
      continue;
    }
    if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// The base-10 exponent of the literal's leading significant digit, used
// only to tell overflow from underflow when from_chars reports a range
// error. Saturates instead of overflowing on absurd exponents.
long long LeadingDigitExponent(std::string_view digits) {
  std::size_t i = 0;
  long long integer_digits = 0;
  long long leading_fraction_zeros = 0;
  bool seen_nonzero = false;
  while (i < digits.size() && IsDigit(digits[i])) {
    if (digits[i] != '0') seen_nonzero = true;
    if (seen_nonzero) ++integer_digits;
    ++i;
  }
  if (i < digits.size() && digits[i] == '.') {
    ++i;
    while (i < digits.size() && IsDigit(digits[i])) {
      if (!seen_nonzero) {
        if (digits[i] != '0') {
          seen_nonzero = true;
        } else {
          ++leading_fraction_zeros;
        }
      }
      ++i;
    }
  }
  long long exponent = 0;
  if (i < digits.size() && (digits[i] == 'e' || digits[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < digits.size() && (digits[i] == '+' || digits[i] == '-')) negative = digits[i++] == '-';
    while (i < digits.size() && IsDigit(digits[i])) {
      if (exponent < 1'000'000'000) exponent = exponent * 10 + (digits[i] - '0');
      ++i;
    }
    if (negative) exponent = -exponent;
  }
  if (integer_digits > 0) return exponent + integer_digits - 1;
  return exponent - leading_fraction_zeros - 1;
}

// The strict grammar accepted here; from_chars alone would also take
// "inf", "nan" and hex forms.
bool IsDecimalLiteral(std::string_view s) {
  std::size_t i = 0;
  std::size_t mantissa_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == s.size();
}

}  // namespace

std::optional<std::uint64_t> ParseUint(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  if (base == 0) {
    base = 10;
    if (s[0] == '0') {
      if (s.size() >= 3 && Lower(s[1]) == 'b') {
        base = 2;
        s.remove_prefix(2);
      } else if (s.size() >= 3 && Lower(s[1]) == 'o') {
        base = 8;
        s.remove_prefix(2);
      } else if (s.size() >= 3 && Lower(s[1]) == 'x') {
        base = 16;
        s.remove_prefix(2);
      } else {
        base = 8;
        s.remove_prefix(1);
      }
    }
  }
  std::uint64_t n = 0;
  const std::uint64_t max = UINT64_MAX;
  const std::uint64_t cutoff = max / static_cast<std::uint64_t>(base) + 1;
  for (char c : s) {
    int d;
    if (IsDigit(c)) {
      d = c - '0';
    } else if (Lower(c) >= 'a' && Lower(c) <= 'z') {
      d = Lower(c) - 'a' + 10;
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    if (n >= cutoff) return std::nullopt;
    n *= static_cast<std::uint64_t>(base);
    const std::uint64_t n1 = n + static_cast<std::uint64_t>(d);
    if (n1 < n) return std::nullopt;
    n = n1;
  }
  return n;
}

std::optional<std::int64_t> ParseInt(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  bool negative = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  std::optional<std::uint64_t> magnitude = ParseUint(s, base);
  if (!magnitude) return std::nullopt;
  constexpr std::uint64_t kCutoff = std::uint64_t{1} << 63;
  if (!negative && *magnitude >= kCutoff) return std::nullopt;
  if (negative && *magnitude > kCutoff) return std::nullopt;
  return negative ? static_cast<std::int64_t>(0 - *magnitude) : static_cast<std::int64_t>(*magnitude);
}

std::optional<double> ParseDecimalFloat(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (!IsDecimalLiteral(text)) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    if (LeadingDigitExponent(text) > 0) return std::nullopt;
    value = 0;
  } else if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return negative ? -value : value;
}

std::optional<double> ParseDecimalFloatUnderscored(std::string_view text) {
  if (text.find('_') == std::string_view::npos) return ParseDecimalFloat(text);
  if (!UnderscoresOk(text)) return std::nullopt;
  std::string plain;
  plain.reserve(text.size());
  for (char c : text) {
    if (c != '_') plain += c;
  }
  return ParseDecimalFloat(plain);
}

std::string Quote(std::string_view value) {
  std::string out = "\"";
  while (!value.empty()) {
    Rune rune = DecodeRune(value);
    if (IsInvalid(rune)) {
      out += "\\x";
      AppendHex(static_cast<unsigned char>(value[0]), 2, &out);
      value.remove_prefix(1);
      continue;
    }
    const char32_t c = rune.value;
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (IsPrintable(c)) {
          out.append(value.substr(0, rune.size));
        } else if (c < 0x80) {
          out += "\\x";
          AppendHex(c, 2, &out);
        } else if (c < 0x10000) {
          out += "\\u";
          AppendHex(c, 4, &out);
        } else {
          out += "\\U";
          AppendHex(c, 8, &out);
        }
    }
    value.remove_prefix(rune.size);
  }
  out += "\"";
  return out;
}

}  // namespace tjr::gocompat
