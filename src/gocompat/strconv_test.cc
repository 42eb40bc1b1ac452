#include "gocompat/strconv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace tjr::gocompat {
namespace {

TEST(StrconvTest, ParseIntWithBasePrefixes) {
  EXPECT_EQ(ParseInt("0x1F", 0), 31);
  EXPECT_EQ(ParseInt("0X1f", 0), 31);
  EXPECT_EQ(ParseInt("-0x10", 0), -16);
  EXPECT_EQ(ParseInt("+0o17", 0), 15);
  EXPECT_EQ(ParseInt("0123", 0), 83);
  EXPECT_EQ(ParseInt("0B101", 0), 5);
  EXPECT_EQ(ParseInt("0", 0), 0);
  EXPECT_EQ(ParseInt("00", 0), 0);
  EXPECT_EQ(ParseInt("-9223372036854775808", 0), INT64_MIN);
  EXPECT_EQ(ParseInt("9223372036854775808", 0), std::nullopt);
  EXPECT_EQ(ParseInt("08", 0), std::nullopt);  // octal
  EXPECT_EQ(ParseInt("0x", 0), std::nullopt);
  EXPECT_EQ(ParseInt("", 0), std::nullopt);
  EXPECT_EQ(ParseInt("+", 0), std::nullopt);
  EXPECT_EQ(ParseInt("1.0", 0), std::nullopt);
  EXPECT_EQ(ParseInt("-101", 2), -5);
}

// Base 10, as util/json and typed decoding use it.
TEST(StrconvTest, ParseIntDecimal) {
  EXPECT_EQ(ParseInt("+5", 10), 5);
  EXPECT_EQ(ParseInt("-5", 10), -5);
  EXPECT_EQ(ParseInt("+-5", 10), std::nullopt);
  EXPECT_EQ(ParseInt("9223372036854775808", 10), std::nullopt);
  EXPECT_EQ(ParseInt("1.0", 10), std::nullopt);
  EXPECT_EQ(ParseInt("", 10), std::nullopt);
}

TEST(StrconvTest, ParseUint) {
  EXPECT_EQ(ParseUint("18446744073709551615", 0), UINT64_MAX);
  EXPECT_EQ(ParseUint("0xFFFFFFFFFFFFFFFF", 0), UINT64_MAX);
  EXPECT_EQ(ParseUint("18446744073709551616", 0), std::nullopt);
  EXPECT_EQ(ParseUint("+1", 0), std::nullopt);  // no sign at all
  EXPECT_EQ(ParseUint("z", 36), 35u);
}

TEST(StrconvTest, ParseDecimalFloat) {
  EXPECT_EQ(ParseDecimalFloat("1.5"), 1.5);
  EXPECT_EQ(ParseDecimalFloat("+.5"), 0.5);
  EXPECT_EQ(ParseDecimalFloat("5."), 5.0);
  EXPECT_EQ(ParseDecimalFloat("-1e-400"), -0.0);
  EXPECT_TRUE(std::signbit(*ParseDecimalFloat("-1e-400")));
  EXPECT_EQ(ParseDecimalFloat("1e400"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloat("0.000001e314"), 1e308);
  EXPECT_EQ(ParseDecimalFloat("inf"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloat("0x10"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloat("."), std::nullopt);
  EXPECT_EQ(ParseDecimalFloat("1e"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloat("1_0"), std::nullopt);
}

TEST(StrconvTest, DecimalFloatUnderscores) {
  EXPECT_EQ(ParseDecimalFloatUnderscored("1_000.5"), 1000.5);
  EXPECT_EQ(ParseDecimalFloatUnderscored(".5_0"), 0.5);
  EXPECT_EQ(ParseDecimalFloatUnderscored("._5"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloatUnderscored("1__0"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloatUnderscored("1_"), std::nullopt);
  EXPECT_EQ(ParseDecimalFloatUnderscored(".5e999"), std::nullopt);
}

TEST(QuoteTest, MatchesStrconvQuote) {
  EXPECT_EQ(Quote(""), "\"\"");
  EXPECT_EQ(Quote("a\"b\\c\n\t"), "\"a\\\"b\\\\c\\n\\t\"");
  EXPECT_EQ(Quote(std::string("\x01\x7f", 2)), "\"\\x01\\x7f\"");
  EXPECT_EQ(Quote("\xff"), "\"\\xff\"");
  EXPECT_EQ(Quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(Quote("\xc2\x85"), "\"\\u0085\"");
  EXPECT_EQ(Quote("<&>"), "\"<&>\"");
  // Names and messages the controller quotes: a long value, linear.
  EXPECT_EQ(Quote(std::string(100000, 'a')).size(), 100002u);
  EXPECT_EQ(Quote("\u2028"), "\"\\u2028\"");
}


}  // namespace
}  // namespace tjr::gocompat
