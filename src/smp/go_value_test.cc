#include "smp/go_value.h"

#include <gtest/gtest.h>

#include "smp/test_tree.h"

namespace tjr::smp {
namespace {

using testing::Flow;

TEST(GoValueTest, TypesFollowTheJsonDecoder) {
  EXPECT_EQ(GoTypeOf(nullptr), GoType::kNil);
  EXPECT_EQ(GoTypeOf(Flow("null")), GoType::kNil);
  EXPECT_EQ(GoTypeOf(Flow("1")), GoType::kInt64);
  EXPECT_EQ(GoTypeOf(Flow("1.0")), GoType::kFloat64);
  EXPECT_EQ(GoTypeOf(Flow("{}")), GoType::kMap);
  EXPECT_EQ(GoTypeName(GoType::kMap), "map[string]interface {}");
  EXPECT_EQ(GoTypeName(GoType::kSlice), "[]interface {}");
  EXPECT_EQ(GoTypeName(GoType::kNil), "%!s(<nil>)");
}

TEST(GoValueTest, InterfaceEqualityKeepsIntAndFloatApart) {
  const doc::Node one = Flow("1");
  const doc::Node one_float = Flow("1.0");
  EXPECT_EQ(GoEqual(&one, &one_float), GoCompare::kDifferent);
  const doc::Node other_one = Flow("1");
  EXPECT_EQ(GoEqual(&one, &other_one), GoCompare::kEqual);
  const doc::Node zero = Flow("0.0");
  const doc::Node minus_zero = Flow("-0.0");
  EXPECT_EQ(GoEqual(&zero, &minus_zero), GoCompare::kEqual);
  const doc::Node null = Flow("null");
  EXPECT_EQ(GoEqual(&null, nullptr), GoCompare::kEqual);
  const doc::Node text = Flow("\"1\"");
  EXPECT_EQ(GoEqual(&text, &one), GoCompare::kDifferent);
}

TEST(GoValueTest, MapsAndSlicesAreUncomparable) {
  const doc::Node map = Flow("{a: 1}");
  const doc::Node same_map = Flow("{a: 1}");
  const doc::Node list = Flow("[1]");
  EXPECT_EQ(GoEqual(&map, &same_map), GoCompare::kPanics);
  EXPECT_EQ(GoEqual(&list, &list), GoCompare::kPanics);
  EXPECT_EQ(GoEqual(&map, &list), GoCompare::kDifferent);
  EXPECT_FALSE(GoHashable(&map));
  EXPECT_TRUE(GoHashable(nullptr));
  EXPECT_EQ(GoComparePanic(&map),
            "runtime error: comparing uncomparable type map[string]interface {}");
  EXPECT_EQ(GoHashPanic(&list), "runtime error: hash of unhashable type []interface {}");
}

TEST(GoValueTest, PrintsLikeFmt) {
  EXPECT_EQ(GoSprintV(Flow("{name: foo, b: [1, 2.5, true, null], a: {}}")),
            "map[a:map[] b:[1 2.5 true <nil>] name:foo]");
  EXPECT_EQ(GoSprintV(Flow("1000000.0")), "1e+06");
  EXPECT_EQ(GoSprintV(nullptr), "<nil>");
  const doc::Node number = Flow("1");
  EXPECT_EQ(GoSprintS(&number), "%!s(int64=1)");
  const doc::Node yes = Flow("true");
  EXPECT_EQ(GoSprintS(&yes), "%!s(bool=true)");
  EXPECT_EQ(GoSprintS(nullptr), "%!s(<nil>)");
  const doc::Node map = Flow("{a: 1, b: null, c: x}");
  EXPECT_EQ(GoSprintS(&map), "map[a:%!s(int64=1) b:<nil> c:x]");
}

TEST(GoValueTest, QuotesLikeStrconv) {
  EXPECT_EQ(gocompat::Quote("name"), "\"name\"");
  EXPECT_EQ(gocompat::Quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\x01\"");
}

}  // namespace
}  // namespace tjr::smp
