#include "yaml/resolve.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace tjr::yaml::detail {
namespace {

// goyaml's resolve() plus its base-60 check; the Go number parsers
// underneath are gocompat/strconv.h's.
TEST(ResolveTest, PlainKeepsString) {
  for (const char* quoted : {"",
                             "~",
                             "null",
                             "y",
                             "NO",
                             "on",
                             "1",
                             "-0",
                             "0x1f",
                             "0o7",
                             "0b1",
                             "0b-1",
                             "1_0",
                             "1e3",
                             "+1.5",
                             ".5",
                             ".inf",
                             "-.Inf",
                             ".NaN",
                             "1:20",
                             "+1:5",
                             "1_0:2:3.5_",
                             "2001-12-14",
                             "2001-12-14 1:2:3",
                             "2001-1-1t1:2:3Z",
                             "2000-02-29",
                             ".5_5"}) {
    EXPECT_FALSE(PlainKeepsString(quoted)) << quoted;
  }
  for (const char* plain : {"a", "<<", "yess", "0x", "1e", "_1", "1e400", "1:60", "1:2:",
                            "2001-02-29", "2001-12-14T1:2:3", "-", "+", ".", "._5", "0b2", ".5e"}) {
    EXPECT_TRUE(PlainKeepsString(plain)) << plain;
  }
  // Binary: 64 digits fit uint64; 65 fit nothing, so the text stays a string.
  EXPECT_FALSE(PlainKeepsString("0b" + std::string(64, '1')));
  EXPECT_TRUE(PlainKeepsString("0b" + std::string(65, '1')));
}

// Non-finite floats never reach kubectl's printer (encoding/json refuses
// them) but still print in goyaml's spelling; integral values print as
// integers when goyaml reads them back as int64 or uint64.
TEST(ResolveTest, FloatText) {
  EXPECT_EQ(FloatText(std::numeric_limits<double>::infinity()), ".inf");
  EXPECT_EQ(FloatText(-std::numeric_limits<double>::infinity()), "-.inf");
  EXPECT_EQ(FloatText(std::nan("")), ".nan");
  EXPECT_EQ(FloatText(9.3e18), "9300000000000000000");
  EXPECT_EQ(FloatText(-9.3e18), "-9.3e+18");             // below int64, and negative
  EXPECT_EQ(FloatText(1.5e19), "15000000000000000000");  // uint64
}

}  // namespace
}  // namespace tjr::yaml::detail
