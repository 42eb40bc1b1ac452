// kube-openapi's date and date-time formats (strfmt.IsDate, IsDateTime).
#include "validate/date_time.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>

namespace tjr::validate {
namespace {

TEST(DateTime, Dates) {
  EXPECT_TRUE(IsDate("2024-02-29"));
  EXPECT_TRUE(IsDate("2000-02-29"));
  EXPECT_TRUE(IsDate("0000-12-31"));
  EXPECT_FALSE(IsDate("1900-02-29"));  // not a leap year
  EXPECT_FALSE(IsDate("2026-02-30"));
  EXPECT_FALSE(IsDate("2026-04-31"));
  EXPECT_FALSE(IsDate("2026-13-01"));
  EXPECT_FALSE(IsDate("2026-00-10"));
  EXPECT_FALSE(IsDate("2026-01-00"));
  EXPECT_FALSE(IsDate("2026-1-01"));
  EXPECT_FALSE(IsDate("2026/01/01"));
  EXPECT_FALSE(IsDate("20260101"));
  EXPECT_FALSE(IsDate(""));
}

TEST(DateTime, DateTimes) {
  for (std::string_view good :
       {"2026-01-01T00:00:00Z", "2026-01-01T00:00:00z", "2026-01-01t23:59:59Z", "2024-02-29t10:11:12.5+02:00",
        "2026-01-01T10:00:00-11:30", "2026-01-01T10:00:00.000000001Z",
        // The fraction's `.` is any byte but a line end; the offset's digits are not bounded.
        "2026-01-01T10:00:00,5Z", "2026-01-01T10:00:0012z", "2026-01-01T10:00:00x1+99:99",
        // Only the text up to a second "t" is the time.
        "2026-01-01T10:00:00Ztrailing"}) {
    EXPECT_TRUE(IsDateTime(good)) << good;
  }
  for (std::string_view bad :
       {"", "2026", "yesterday", "2026-02-30T00:00:00Z", "2026-01-01 00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T10:60:00Z", "2026-01-01T10:00:60Z", "2026-01-01T10:00:00", "2026-01-01T10:00:00.Z",
        "2026-01-01T10:00:00\n5Z", "2026-01-01T10:00:00\r5Z", "2026-01-01T10:00:00+0200", "2026-01-01T1:00:00Z",
        "2026-01-01T10:00:00.5Zz", "2026-01-01T10:00:00.5+02:00Z", "2026-01-01T", "2026-01-01TT10:00:00Z",
        "x2026-01-01T10:00:00Z"}) {
    EXPECT_FALSE(IsDateTime(bad)) << bad;
  }
}

// The time part's language, written as the regular expression kube-openapi
// uses (over bytes, as std::regex reads it): the reference for short texts.
bool ReferenceTime(const std::string& time) {
  static const std::regex kTime(R"(^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$)");
  std::string lower = time;
  for (char& c : lower) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  std::smatch match;
  return std::regex_search(lower, match, kTime) && match[1].str() <= "23" && match[2].str() <= "59" &&
         match[3].str() <= "59";
}

TEST(DateTime, SameLanguageAsTheRegularExpression) {
  // Random edits of valid times, over the bytes that matter to the pattern.
  std::string alphabet = "0123456789:.,+-zZtTx \n\r\xc3\xa9";
  alphabet += '\0';
  const std::string seeds[] = {"12:34:56z", "23:59:59.123+05:30", "00:00:00Z", "12:00:0012z", "09:08:07-00:00"};
  std::mt19937 random(13);
  int accepted = 0;
  for (int round = 0; round < 40000; ++round) {
    std::string time = seeds[round % std::size(seeds)];
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = time.empty() ? 0 : random() % (time.size() + 1);
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0: time.insert(at, 1, c); break;
        case 1:
          if (at < time.size()) time.erase(at, 1);
          break;
        default:
          if (at < time.size()) time[at] = c;
      }
    }
    if (time.find_first_of("tT") != std::string::npos) continue;  // a "t" ends the time part
    const bool expected = ReferenceTime(time);
    accepted += expected ? 1 : 0;
    ASSERT_EQ(IsDateTime("2024-02-29T" + time), expected) << testing::PrintToString(time);
  }
  EXPECT_GT(accepted, 1000);  // both answers were exercised
}

TEST(DateTime, LongTextsNeedNoStack) {
  // std::regex recursed once per character: 100 KB overflowed the stack.
  const std::string digits(1 << 20, '7');
  EXPECT_TRUE(IsDateTime("2026-01-01T10:00:00." + digits + "Z"));
  EXPECT_TRUE(IsDateTime("2026-01-01T10:00:00." + digits + "+01:00"));
  EXPECT_FALSE(IsDateTime("2026-01-01T10:00:00." + digits));
  EXPECT_FALSE(IsDateTime("2026-01-01T10:00:00." + digits + "x+01:00"));
  EXPECT_FALSE(IsDateTime("2026-01-01T" + digits));
  EXPECT_FALSE(IsDateTime(digits));
}

}  // namespace
}  // namespace tjr::validate
