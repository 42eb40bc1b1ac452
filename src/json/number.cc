#include "json/number.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace tjr::json {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

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

std::optional<std::int64_t> ParseDecimalInt64(std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits[0] == '+') {
    digits.remove_prefix(1);
    if (digits.empty() || !IsDigit(digits[0])) return std::nullopt;
  }
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> IntegralFloatAsInt64(double value) {
  // 2^63 is exact in a double; anything at or above it does not fit.
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (!std::isfinite(value) || value != std::trunc(value)) return std::nullopt;
  if (value < -kTwoTo63 || value >= kTwoTo63) return std::nullopt;
  return static_cast<std::int64_t>(value);
}

}  // namespace tjr::json
