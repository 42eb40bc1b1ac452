#include "yaml/timestamp.h"

#include <gtest/gtest.h>

namespace tjr::yaml::detail {
namespace {

TEST(TimestampTest, GoyamlLayouts) {
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14"));
  EXPECT_TRUE(IsYamlTimestamp("2001-1-2"));
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14t21:59:43.10-05:00"));
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14T21:59:43Z"));
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14 21:59:43.10"));
  EXPECT_TRUE(IsYamlTimestamp("2000-02-29"));
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14  21:59:43,5"));  // runs of spaces, comma
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14T1:2:3+24:00"));
  EXPECT_FALSE(IsYamlTimestamp("2001-02-29"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14 21:59:43.10 -5"));  // time.Parse cannot
  EXPECT_FALSE(IsYamlTimestamp("2001-13-01"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14T24:00:00Z"));
  EXPECT_FALSE(IsYamlTimestamp("12001-01-01"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14T21:59:43"));  // zone required after T
}

TEST(TimestampTest, RangesAndSpaces) {
  EXPECT_TRUE(IsYamlTimestamp("2000-02-29"));
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14T21:59:43.123456789123+05:30"));
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14   21:59:43,5"));  // a layout space matches a run
  EXPECT_TRUE(IsYamlTimestamp("2001-12-14T1:2:3-24:60"));
  EXPECT_FALSE(IsYamlTimestamp("1900-02-29"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14T21:59:43+24:61"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14T21:59:43+0530"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14T21:59:43. Z"));
  EXPECT_FALSE(IsYamlTimestamp("2001-12-14 "));
  EXPECT_FALSE(IsYamlTimestamp("201-12-14"));
}

}  // namespace
}  // namespace tjr::yaml::detail
