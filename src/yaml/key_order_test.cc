#include "yaml/key_order.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace tjr::yaml::detail {
namespace {

// Pairs worked out from goyaml v2's keyList.Less (sorter.go).
TEST(KeyOrderTest, GoyamlLess) {
  struct Pair {
    std::string_view a, b;
    bool less;
  };
  const Pair pairs[] = {
      {"a9", "a10", true},
      {"a10", "a9", false},  // digit runs by value
      {"a1", "a01", true},
      {"a01", "a1", false},  // equal value: shorter run first
      {"_", "Z", true},
      {"Z", "_", false},  // letters after non-letters
      {"a-b", "a.b", true},
      {"a.b", "a_b", true},  // non-letters by code point
      {"a", "a0", true},
      {"a0", "a", false},  // a prefix sorts first
      {"Z", "a", true},
      {"f", "\xC3\xA9", true},  // letters by code point
      {"\xC3\xA9", "f", false},
      {"x1y", "x01y", true},
      {"x2", "x10", true},
      {"10", "9", false},
      {"09", "10", true},
      // Any Unicode digit counts, valued as its code point minus '0'.
      {"a5", "a\xD9\xA3", true},
      // Digit runs wrap in int64: 10^19 reads as a negative number.
      {"a10000000000000000000", "a2", true},
      {"", "a", true},
      {"a", "", false},
      {"a", "a", false},
  };
  for (const Pair& p : pairs) {
    EXPECT_EQ(GoyamlKeyLess(p.a, p.b), p.less) << p.a << " < " << p.b;
  }
}

TEST(KeyOrderTest, NotTransitive) {
  EXPECT_TRUE(GoyamlKeyLess("1", "01"));
  EXPECT_TRUE(GoyamlKeyLess("01", "0a"));
  EXPECT_TRUE(GoyamlKeyLess("0a", "1"));
}

std::vector<std::string_view> Sorted(const std::vector<std::string_view>& keys) {
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) order[i] = i;
  std::vector<std::size_t> scratch;
  SortKeys(keys, &order, &scratch);
  std::vector<std::string_view> out;
  for (std::size_t i : order) out.push_back(keys[i]);
  return out;
}

TEST(KeyOrderTest, SortsShortAndLongLists) {
  EXPECT_EQ(Sorted({"b", "a10", "_", "a9", "Z"}),
            (std::vector<std::string_view>{"_", "Z", "a9", "a10", "b"}));
  std::vector<std::string> names;
  for (int i = 30; i >= 1; --i) names.push_back("k" + std::to_string(i));
  std::vector<std::string_view> keys(names.begin(), names.end());
  std::vector<std::string_view> expected(keys.rbegin(), keys.rend());
  EXPECT_EQ(Sorted(keys), expected);
}

// kubectl orders such a set differently from run to run (it sorts Go's
// randomly ordered map keys); ours depends only on the input order. Both
// inputs below are already "sorted" pairwise, so insertion keeps them.
TEST(KeyOrderTest, CyclesSortDeterministically) {
  EXPECT_EQ(Sorted({"1", "01", "0a"}), (std::vector<std::string_view>{"1", "01", "0a"}));
  EXPECT_EQ(Sorted({"0a", "1", "01"}), (std::vector<std::string_view>{"0a", "1", "01"}));
  EXPECT_EQ(Sorted({"01", "1", "0a"}), (std::vector<std::string_view>{"1", "01", "0a"}));
}

}  // namespace
}  // namespace tjr::yaml::detail
