#include "yaml/go_parse.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "json/number.h"

namespace tjr::yaml::input {
namespace {

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

// time.Parse's getnum: one or two digits.
bool TakeNumber(std::string_view& s, int* value) {
  if (s.empty() || !IsDigit(s[0])) return false;
  if (s.size() < 2 || !IsDigit(s[1])) {
    *value = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  *value = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

bool TakeLiteral(std::string_view& s, char c) {
  if (s.empty() || s[0] != c) return false;
  s.remove_prefix(1);
  return true;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// One layout: "2006-1-2", then optionally `separator` "15:4:5" with an
// optional fraction, then (with_zone) "Z" or "+07:00".
bool MatchesLayout(std::string_view s, char separator, bool with_time, bool with_zone) {
  if (s.size() < 4 || !IsDigit(s[0]) || !IsDigit(s[1]) || !IsDigit(s[2]) || !IsDigit(s[3])) {
    return false;
  }
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  s.remove_prefix(4);
  int month = 0;
  int day = 0;
  if (!TakeLiteral(s, '-') || !TakeNumber(s, &month) || month < 1 || month > 12) return false;
  if (!TakeLiteral(s, '-') || !TakeNumber(s, &day)) return false;
  if (with_time) {
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (separator == ' ') {
      // time.Parse lets a space in the layout match a run of spaces.
      if (!TakeLiteral(s, ' ')) return false;
      while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
    } else if (!TakeLiteral(s, separator)) {
      return false;
    }
    if (!TakeNumber(s, &hour) || hour >= 24) return false;
    if (!TakeLiteral(s, ':') || !TakeNumber(s, &minute) || minute >= 60) return false;
    if (!TakeLiteral(s, ':') || !TakeNumber(s, &second) || second >= 60) return false;
    if (s.size() >= 2 && (s[0] == '.' || s[0] == ',') && IsDigit(s[1])) {
      s.remove_prefix(1);
      while (!s.empty() && IsDigit(s[0])) s.remove_prefix(1);
    }
    if (with_zone) {
      if (TakeLiteral(s, 'Z')) {
        // UTC
      } else {
        if (s.size() < 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':') return false;
        if (!IsDigit(s[1]) || !IsDigit(s[2]) || !IsDigit(s[4]) || !IsDigit(s[5])) return false;
        const int zone_hour = (s[1] - '0') * 10 + (s[2] - '0');
        const int zone_minute = (s[4] - '0') * 10 + (s[5] - '0');
        if (zone_hour > 24 || zone_minute > 60) return false;
        s.remove_prefix(6);
      }
    }
  }
  if (!s.empty()) return false;
  return day >= 1 && day <= DaysIn(month, year);
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::uint64_t> GoParseUint(std::string_view s, int base) {
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

std::optional<std::int64_t> GoParseInt(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  bool negative = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  std::optional<std::uint64_t> magnitude = GoParseUint(s, base);
  if (!magnitude) return std::nullopt;
  constexpr std::uint64_t kCutoff = std::uint64_t{1} << 63;
  if (!negative && *magnitude >= kCutoff) return std::nullopt;
  if (negative && *magnitude > kCutoff) return std::nullopt;
  return negative ? static_cast<std::int64_t>(0 - *magnitude) : static_cast<std::int64_t>(*magnitude);
}

std::optional<double> GoParseDecimalFloat(std::string_view text) {
  if (text.find('_') == std::string_view::npos) return json::ParseDecimalFloat(text);
  if (!UnderscoresOk(text)) return std::nullopt;
  std::string plain;
  plain.reserve(text.size());
  for (char c : text) {
    if (c != '_') plain += c;
  }
  return json::ParseDecimalFloat(plain);
}

bool ParsesAsYamlTimestamp(std::string_view s) {
  // goyaml's quick check: every layout starts with four digits and '-'.
  std::size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i != 4 || i == s.size() || s[i] != '-') return false;
  return MatchesLayout(s, 'T', true, true) || MatchesLayout(s, 't', true, true) ||
         MatchesLayout(s, ' ', true, false) || MatchesLayout(s, ' ', false, false);
}

std::optional<std::string> DecodeBase64(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c != '\r' && c != '\n') clean += c;
  }
  if (clean.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(clean.size() / 4 * 3);
  for (std::size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    int v[4];
    int padding = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = clean[i + static_cast<std::size_t>(k)];
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        ++padding;
        continue;
      }
      if (padding > 0) return std::nullopt;  // data after '='
      v[k] = Base64Value(c);
      if (v[k] < 0) return std::nullopt;
    }
    const std::uint32_t bits = (static_cast<std::uint32_t>(v[0]) << 18) |
                               (static_cast<std::uint32_t>(v[1]) << 12) |
                               (static_cast<std::uint32_t>(v[2]) << 6) | static_cast<std::uint32_t>(v[3]);
    out += static_cast<char>((bits >> 16) & 0xFF);
    if (padding < 2) out += static_cast<char>((bits >> 8) & 0xFF);
    if (padding < 1) out += static_cast<char>(bits & 0xFF);
  }
  return out;
}

std::string FormatFloat32G(double value) {
  const float f = static_cast<float>(value);
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  // Shortest float32 digits in scientific form: "d.ddde+XX".
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(end - buf));
  std::string out;
  if (!sci.empty() && sci[0] == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const std::size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') digits += c;
  }
  int exponent = std::atoi(std::string(sci.substr(e + 1)).c_str());
  if (digits == "0") exponent = 0;
  // strconv's %g with shortest digits: %e when exp < -4 || exp >= 6.
  if (exponent < -4 || exponent >= 6) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += exponent < 0 ? "e-" : "e+";
    const int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return out;
  }
  const int point = exponent + 1;  // digits before the decimal point
  if (point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += digits;
  } else if (static_cast<std::size_t>(point) >= digits.size()) {
    out += digits;
    out.append(static_cast<std::size_t>(point) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<std::size_t>(point));
    out += '.';
    out += digits.substr(static_cast<std::size_t>(point));
  }
  return out;
}

}  // namespace tjr::yaml::input
