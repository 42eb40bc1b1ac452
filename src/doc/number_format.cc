#include "doc/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace tjr::doc {
namespace {

// The shortest decimal digits that round-trip, as Go's strconv computes
// them: value = 0.DIGITS × 10^point.
struct ShortestDigits {
  bool negative = false;
  std::string digits;
  int point = 0;
};

ShortestDigits Shortest(double value) {
  ShortestDigits out;
  out.negative = std::signbit(value);
  double magnitude = std::fabs(value);
  if (magnitude == 0) {
    out.digits = "0";
    out.point = 1;
    return out;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, magnitude,
                              std::chars_format::scientific);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  std::size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') out.digits += c;
  }
  out.point = std::atoi(std::string(text.substr(e + 1)).c_str()) + 1;
  return out;
}

// strconv's %e with `fraction_digits` digits after the point.
std::string FormatE(const ShortestDigits& d, int fraction_digits) {
  std::string out = d.negative ? "-" : "";
  out += d.digits[0];
  if (fraction_digits > 0) {
    out += '.';
    for (int i = 1; i <= fraction_digits; ++i) {
      out += i < static_cast<int>(d.digits.size()) ? d.digits[i] : '0';
    }
  }
  int exponent = d.digits == "0" ? 0 : d.point - 1;
  out += 'e';
  out += exponent < 0 ? '-' : '+';
  int magnitude = std::abs(exponent);
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
  return out;
}

// strconv's %f with `fraction_digits` digits after the point.
std::string FormatF(const ShortestDigits& d, int fraction_digits) {
  std::string out = d.negative ? "-" : "";
  int count = static_cast<int>(d.digits.size());
  if (d.point > 0) {
    for (int i = 0; i < d.point; ++i) out += i < count ? d.digits[i] : '0';
  } else {
    out += '0';
  }
  if (fraction_digits > 0) {
    out += '.';
    for (int i = 0; i < fraction_digits; ++i) {
      int index = d.point + i;
      out += (index >= 0 && index < count) ? d.digits[index] : '0';
    }
  }
  return out;
}

}  // namespace

std::string FormatFloatShortestG(double value) {
  if (std::isnan(value)) return ".nan";
  if (std::isinf(value)) return value > 0 ? ".inf" : "-.inf";
  ShortestDigits d = Shortest(value);
  int count = static_cast<int>(d.digits.size());
  // Go decides between %e and %f with precision 6 for the shortest form.
  int exponent = d.point - 1;
  if (exponent < -4 || exponent >= 6) return FormatE(d, count - 1);
  return FormatF(d, std::max(count - d.point, 0));
}

std::string FormatFloatJson(double value) {
  ShortestDigits d = Shortest(value);
  double magnitude = std::fabs(value);
  int count = static_cast<int>(d.digits.size());
  if (magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21)) {
    std::string out = FormatE(d, count - 1);
    // encoding/json writes e-7, not e-07.
    std::size_t n = out.size();
    if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
      out.erase(n - 2, 1);
    }
    return out;
  }
  return FormatF(d, std::max(count - d.point, 0));
}

}  // namespace tjr::doc
