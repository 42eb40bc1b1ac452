#include "yaml/go_parse.h"

#include <gtest/gtest.h>

namespace tjr::yaml::input {
namespace {

TEST(GoParseTest, ParseIntWithBasePrefixes) {
  EXPECT_EQ(GoParseInt("0x1F", 0), 31);
  EXPECT_EQ(GoParseInt("0X1f", 0), 31);
  EXPECT_EQ(GoParseInt("-0x10", 0), -16);
  EXPECT_EQ(GoParseInt("+0o17", 0), 15);
  EXPECT_EQ(GoParseInt("0123", 0), 83);
  EXPECT_EQ(GoParseInt("0B101", 0), 5);
  EXPECT_EQ(GoParseInt("0", 0), 0);
  EXPECT_EQ(GoParseInt("00", 0), 0);
  EXPECT_EQ(GoParseInt("-9223372036854775808", 0), INT64_MIN);
  EXPECT_EQ(GoParseInt("9223372036854775808", 0), std::nullopt);
  EXPECT_EQ(GoParseInt("08", 0), std::nullopt);  // octal
  EXPECT_EQ(GoParseInt("0x", 0), std::nullopt);
  EXPECT_EQ(GoParseInt("", 0), std::nullopt);
  EXPECT_EQ(GoParseInt("+", 0), std::nullopt);
  EXPECT_EQ(GoParseInt("1.0", 0), std::nullopt);
  EXPECT_EQ(GoParseInt("-101", 2), -5);
}

TEST(GoParseTest, ParseUint) {
  EXPECT_EQ(GoParseUint("18446744073709551615", 0), UINT64_MAX);
  EXPECT_EQ(GoParseUint("0xFFFFFFFFFFFFFFFF", 0), UINT64_MAX);
  EXPECT_EQ(GoParseUint("18446744073709551616", 0), std::nullopt);
  EXPECT_EQ(GoParseUint("+1", 0), std::nullopt);  // no sign at all
  EXPECT_EQ(GoParseUint("z", 36), 35u);
}

TEST(GoParseTest, DecimalFloatUnderscores) {
  EXPECT_EQ(GoParseDecimalFloat("1_000.5"), 1000.5);
  EXPECT_EQ(GoParseDecimalFloat(".5_0"), 0.5);
  EXPECT_EQ(GoParseDecimalFloat("._5"), std::nullopt);
  EXPECT_EQ(GoParseDecimalFloat("1__0"), std::nullopt);
  EXPECT_EQ(GoParseDecimalFloat("1_"), std::nullopt);
  EXPECT_EQ(GoParseDecimalFloat(".5e999"), std::nullopt);
}

TEST(GoParseTest, YamlTimestamps) {
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-12-14"));
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-1-2"));
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-12-14t21:59:43.10-05:00"));
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-12-14T21:59:43Z"));
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-12-14 21:59:43.10"));
  EXPECT_TRUE(ParsesAsYamlTimestamp("2000-02-29"));
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-12-14  21:59:43,5"));  // runs of spaces, comma
  EXPECT_TRUE(ParsesAsYamlTimestamp("2001-12-14T1:2:3+24:00"));
  EXPECT_FALSE(ParsesAsYamlTimestamp("2001-02-29"));
  EXPECT_FALSE(ParsesAsYamlTimestamp("2001-12-14 21:59:43.10 -5"));  // time.Parse cannot
  EXPECT_FALSE(ParsesAsYamlTimestamp("2001-13-01"));
  EXPECT_FALSE(ParsesAsYamlTimestamp("2001-12-14T24:00:00Z"));
  EXPECT_FALSE(ParsesAsYamlTimestamp("12001-01-01"));
  EXPECT_FALSE(ParsesAsYamlTimestamp("2001-12-14T21:59:43"));  // zone required after T
}

TEST(GoParseTest, Base64LikeStdEncoding) {
  EXPECT_EQ(DecodeBase64("aGVsbG8="), "hello");
  EXPECT_EQ(DecodeBase64("aGVs\nbG8=\n"), "hello");
  EXPECT_EQ(DecodeBase64("YQ=="), "a");
  EXPECT_EQ(DecodeBase64(""), "");
  EXPECT_EQ(DecodeBase64("aGVsbG8"), std::nullopt);
  EXPECT_EQ(DecodeBase64("a b="), std::nullopt);
  EXPECT_EQ(DecodeBase64("YQ=x"), std::nullopt);
  EXPECT_EQ(DecodeBase64("YQ==YQ=="), std::nullopt);
}

TEST(GoParseTest, FormatFloat32G) {
  // The spellings kubectl gave these YAML float keys.
  EXPECT_EQ(FormatFloat32G(1000), "1000");
  EXPECT_EQ(FormatFloat32G(1e6), "1e+06");
  EXPECT_EQ(FormatFloat32G(123456789.0), "1.2345679e+08");
  EXPECT_EQ(FormatFloat32G(0.1), "0.1");
  EXPECT_EQ(FormatFloat32G(-0.0), "-0");
  EXPECT_EQ(FormatFloat32G(1.5), "1.5");
  // strconv's %g switch points: exponent < -4 or >= 6.
  EXPECT_EQ(FormatFloat32G(0.0001), "0.0001");
  EXPECT_EQ(FormatFloat32G(0.00001), "1e-05");
  EXPECT_EQ(FormatFloat32G(100000), "100000");
  EXPECT_EQ(FormatFloat32G(16777217), "1.6777216e+07");
  EXPECT_EQ(FormatFloat32G(1e39), "+Inf");
  EXPECT_EQ(FormatFloat32G(1e-50), "0");
}

}  // namespace
}  // namespace tjr::yaml::input
