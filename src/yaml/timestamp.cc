#include "yaml/timestamp.h"

#include <cstddef>

namespace tjr::yaml::detail {
namespace {

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// time.Parse's getnum: one digit, or two when the second is a digit too.
bool GetNum(std::string_view s, std::size_t* pos, int* value) {
  std::size_t i = *pos;
  if (i >= s.size() || !IsAsciiDigit(s[i])) return false;
  if (i + 1 >= s.size() || !IsAsciiDigit(s[i + 1])) {
    *value = s[i] - '0';
    *pos = i + 1;
    return true;
  }
  *value = (s[i] - '0') * 10 + (s[i + 1] - '0');
  *pos = i + 2;
  return true;
}

bool Literal(std::string_view s, std::size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// "2006-1-2", the date every layout starts with; the caller has checked the
// four-digit year and the dash after it.
bool ParseDate(std::string_view s, std::size_t* pos) {
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  int month, day;
  *pos = 5;
  if (!GetNum(s, pos, &month) || month < 1 || month > 12) return false;
  if (!Literal(s, pos, '-') || !GetNum(s, pos, &day)) return false;
  return day >= 1 && day <= DaysIn(month, year);
}

// "15:4:5.999999999": hour, minute, second and an optional fraction (a
// period or comma and any number of digits).
bool ParseClock(std::string_view s, std::size_t* pos) {
  int hour, minute, second;
  if (!GetNum(s, pos, &hour) || hour >= 24) return false;
  if (!Literal(s, pos, ':') || !GetNum(s, pos, &minute) || minute >= 60) return false;
  if (!Literal(s, pos, ':') || !GetNum(s, pos, &second) || second >= 60) return false;
  std::size_t i = *pos;
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && IsAsciiDigit(s[i + 1])) {
    i += 1;
    while (i < s.size() && IsAsciiDigit(s[i])) ++i;
    *pos = i;
  }
  return true;
}

// "Z07:00": 'Z' or a signed hh:mm offset (hours up to 24, minutes up to 60).
bool ParseZone(std::string_view s, std::size_t* pos) {
  const std::size_t i = *pos;
  if (i < s.size() && s[i] == 'Z') {
    *pos = i + 1;
    return true;
  }
  if (s.size() - i < 6 || s[i + 3] != ':') return false;
  if (s[i] != '+' && s[i] != '-') return false;
  for (std::size_t k : {i + 1, i + 2, i + 4, i + 5}) {
    if (!IsAsciiDigit(s[k])) return false;
  }
  const int hours = (s[i + 1] - '0') * 10 + (s[i + 2] - '0');
  const int minutes = (s[i + 4] - '0') * 10 + (s[i + 5] - '0');
  if (hours > 24 || minutes > 60) return false;
  *pos = i + 6;
  return true;
}

}  // namespace

bool IsYamlTimestamp(std::string_view s) {
  std::size_t digits = 0;
  while (digits < s.size() && IsAsciiDigit(s[digits])) ++digits;
  if (digits != 4 || digits == s.size() || s[digits] != '-') return false;

  std::size_t pos;
  if (!ParseDate(s, &pos)) return false;
  if (pos == s.size()) return true;
  const char separator = s[pos];
  if (separator == 'T' || separator == 't') {
    ++pos;
    return ParseClock(s, &pos) && ParseZone(s, &pos) && pos == s.size();
  }
  if (separator == ' ') {
    while (pos < s.size() && s[pos] == ' ') ++pos;
    return ParseClock(s, &pos) && pos == s.size();
  }
  return false;
}

}  // namespace tjr::yaml::detail
