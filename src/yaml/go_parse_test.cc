#include "yaml/go_parse.h"

#include <gtest/gtest.h>

namespace tjr::yaml::input {
namespace {

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
