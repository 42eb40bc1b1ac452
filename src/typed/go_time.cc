#include "typed/go_time.h"

#include <cstdio>

#include "gocompat/utf8.h"

namespace tjr::typed {
namespace {

constexpr std::string_view kLayout = "2006-01-02T15:04:05Z07:00";

// The layout's pieces in order: literal prefix, then one element.
enum class Element { kYear, kMonth, kDay, kHour, kMinute, kSecond, kZone };
struct Chunk {
  std::string_view prefix;
  Element element;
  std::string_view text;
};
constexpr Chunk kChunks[] = {
    {"", Element::kYear, "2006"},    {"-", Element::kMonth, "01"},  {"-", Element::kDay, "02"},
    {"T", Element::kHour, "15"},     {":", Element::kMinute, "04"}, {":", Element::kSecond, "05"},
    {"", Element::kZone, "Z07:00"},
};

// The time package's quote(): non-ASCII and control bytes as \xNN.
std::string Quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  while (!s.empty()) {
    const gocompat::Rune decoded = gocompat::DecodeRune(s);
    if (decoded.value >= 0x80 || decoded.value < ' ') {
      for (std::size_t i = 0; i < decoded.size; ++i) {
        auto byte = static_cast<unsigned char>(s[i]);
        out += "\\x";
        out += kHex[byte >> 4];
        out += kHex[byte & 0xF];
      }
    } else {
      if (decoded.value == '"' || decoded.value == '\\') out += '\\';
      out += static_cast<char>(decoded.value);
    }
    s.remove_prefix(decoded.size);
  }
  return out + "\"";
}

Diagnostic ParseError(std::string_view value, std::string_view layout_elem,
                      std::string_view value_elem, std::string_view message) {
  std::string text = "parsing time " + Quote(value);
  if (message.empty()) {
    text += " as " + Quote(kLayout) + ": cannot parse " + Quote(value_elem) + " as " +
            Quote(layout_elem);
  } else {
    text += message;
  }
  return MakeError({}, "", std::move(text));
}

bool IsDigitAt(std::string_view s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// time.getnum: one or two digits (exactly two when fixed).
bool GetNum(std::string_view* s, bool fixed, int* out) {
  if (!IsDigitAt(*s, 0)) return false;
  if (!IsDigitAt(*s, 1)) {
    if (fixed) return false;
    *out = (*s)[0] - '0';
    s->remove_prefix(1);
    return true;
  }
  *out = ((*s)[0] - '0') * 10 + ((*s)[1] - '0');
  s->remove_prefix(2);
  return true;
}

bool IsLeap(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int DaysIn(int month, std::int64_t year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && IsLeap(year)) return 29;
  return kDays[month - 1];
}

// Days since 1970-01-01 of a proleptic Gregorian date.
std::int64_t DaysFromCivil(std::int64_t y, int m, int d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  std::int64_t year;
  int month;
  int day;
};

Civil CivilFromDays(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (month <= 2), month, day};
}

}  // namespace

Result<GoTime> ParseRfc3339(std::string_view text) {
  std::string_view value = text;
  int year = 0, month = -1, day = -1, hour = 0, minute = 0, second = 0;
  std::int32_t nanos = 0;
  std::int64_t zone_offset = 0;
  for (const Chunk& chunk : kChunks) {
    for (char c : chunk.prefix) {
      if (value.empty() || value[0] != c) return ParseError(text, chunk.prefix, value, "");
      value.remove_prefix(1);
    }
    const std::string_view hold = value;
    bool bad = false;
    std::string_view range;
    switch (chunk.element) {
      case Element::kYear:
        bad = value.size() < 4;
        for (std::size_t i = 0; !bad && i < 4; ++i) bad = !IsDigitAt(value, i);
        if (!bad) {
          year = (value[0] - '0') * 1000 + (value[1] - '0') * 100 + (value[2] - '0') * 10 +
                 (value[3] - '0');
          value.remove_prefix(4);
        }
        break;
      case Element::kMonth:
        bad = !GetNum(&value, true, &month);
        if (!bad && (month <= 0 || month > 12)) range = "month";
        break;
      case Element::kDay:
        bad = !GetNum(&value, true, &day);
        break;
      case Element::kHour:
        bad = !GetNum(&value, false, &hour);
        if (hour >= 24) range = "hour";
        break;
      case Element::kMinute:
        bad = !GetNum(&value, true, &minute);
        if (minute >= 60) range = "minute";
        break;
      case Element::kSecond:
        bad = !GetNum(&value, true, &second);
        if (bad) break;
        if (second >= 60) {
          range = "second";
          break;
        }
        if (value.size() >= 2 && (value[0] == '.' || value[0] == ',') && IsDigitAt(value, 1)) {
          std::size_t n = 2;
          while (IsDigitAt(value, n)) ++n;
          // Only the first nine fraction digits count.
          std::size_t used = n > 10 ? 10 : n;
          std::int64_t ns = 0;
          for (std::size_t i = 1; i < used; ++i) ns = ns * 10 + (value[i] - '0');
          for (std::size_t i = used; i < 10; ++i) ns *= 10;
          nanos = static_cast<std::int32_t>(ns);
          value.remove_prefix(n);
        }
        break;
      case Element::kZone: {
        if (!value.empty() && value[0] == 'Z') {
          value.remove_prefix(1);
          break;
        }
        if (value.size() < 6 || value[3] != ':') {
          bad = true;
          break;
        }
        std::string_view hh = value.substr(1, 2), mm = value.substr(4, 2);
        char sign = value[0];
        value.remove_prefix(6);
        int hours = 0, minutes = 0;
        bad = !GetNum(&hh, true, &hours) || !GetNum(&mm, true, &minutes);
        if (hours > 24) range = "time zone offset hour";
        if (minutes > 60) range = "time zone offset minute";
        zone_offset = (std::int64_t{hours} * 60 + minutes) * 60;
        if (sign == '-') {
          zone_offset = -zone_offset;
        } else if (sign != '+') {
          bad = true;
        }
        break;
      }
    }
    if (!range.empty()) {
      return ParseError(text, chunk.text, value, ": " + std::string(range) + " out of range");
    }
    if (bad) return ParseError(text, chunk.text, hold, "");
  }
  if (!value.empty()) return ParseError(text, "", value, ": extra text: " + Quote(value));
  if (day < 1 || day > DaysIn(month, year)) return ParseError(text, "", value, ": day out of range");

  GoTime out;
  out.unix_seconds = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 +
                     second - zone_offset;
  out.nanos = nanos;
  out.has_location = true;
  return out;
}

std::string FormatRfc3339(const GoTime& time) {
  std::int64_t days = time.unix_seconds / 86400;
  std::int64_t seconds = time.unix_seconds % 86400;
  if (seconds < 0) {
    seconds += 86400;
    --days;
  }
  Civil civil = CivilFromDays(days);
  std::string year = std::to_string(civil.year < 0 ? -civil.year : civil.year);
  if (year.size() < 4) year.insert(0, 4 - year.size(), '0');
  if (civil.year < 0) year.insert(0, "-");
  char rest[32];
  std::snprintf(rest, sizeof rest, "-%02d-%02dT%02d:%02d:%02dZ", civil.month, civil.day,
                static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
                static_cast<int>(seconds % 60));
  return year + rest;
}

}  // namespace tjr::typed
