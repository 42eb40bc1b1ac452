#include "validate/date_time.h"

#include <algorithm>

namespace tjr::validate {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool Digits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), IsDigit); }

int Number(std::string_view digits) {
  int value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

// "[+-]hh:mm", the numeric zone of the pattern (any two digits each).
bool IsOffset(std::string_view text) {
  return text.size() == 6 && (text[0] == '+' || text[0] == '-') && Digits(text.substr(1, 2)) && text[3] == ':' &&
         Digits(text.substr(4, 2));
}

// "hh:mm:ss(.frac)?(z|[+-]hh:mm)" with the bounds IsDateTime applies.
bool IsTime(std::string_view time) {
  if (time.size() < 9 || time[2] != ':' || time[5] != ':') return false;
  const std::string_view hh = time.substr(0, 2), mm = time.substr(3, 2), ss = time.substr(6, 2);
  if (!Digits(hh) || !Digits(mm) || !Digits(ss)) return false;
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return false;
  std::string_view rest = time.substr(8);
  // The zone ends the text, so it alone decides where the fraction stops:
  // a final 'z' (which no digit is) or a final [+-]hh:mm.
  if (rest.back() == 'z' || rest.back() == 'Z') {  // lowercased before the match
    rest.remove_suffix(1);
  } else if (rest.size() >= 6 && IsOffset(rest.substr(rest.size() - 6))) {
    rest.remove_suffix(6);
  } else {
    return false;
  }
  // The optional fraction: one byte `.` matches, then one or more digits.
  return rest.empty() || (rest.size() >= 2 && rest[0] != '\n' && rest[0] != '\r' && Digits(rest.substr(1)));
}

}  // namespace

bool IsDate(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  if (!Digits(text.substr(0, 4)) || !Digits(text.substr(5, 2)) || !Digits(text.substr(8, 2))) return false;
  const int year = Number(text.substr(0, 4));
  const int month = Number(text.substr(5, 2));
  const int day = Number(text.substr(8, 2));
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool IsDateTime(std::string_view text) {
  if (text.size() < 4) return false;
  // strings.ToLower then Split(..., "t"): only 'T' and 't' lower to "t",
  // and in what follows only 'Z' (the zone) lowers to a letter that counts.
  auto is_t = [](char c) { return c == 't' || c == 'T'; };
  const auto first = std::find_if(text.begin(), text.end(), is_t);
  if (first == text.end()) return false;
  const auto second = std::find_if(first + 1, text.end(), is_t);
  if (!IsDate(std::string_view(text.begin(), first))) return false;
  return IsTime(std::string_view(first + 1, second));
}

}  // namespace tjr::validate
