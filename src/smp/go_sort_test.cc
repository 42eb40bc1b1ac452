#include "smp/go_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace tjr::smp {
namespace {

std::vector<int> SortedByGo(std::vector<int> values, bool (*less)(int, int)) {
  GoSliceStable(
      values.size(), [&](std::size_t i, std::size_t j) { return less(values[i], values[j]); },
      [&](std::size_t i, std::size_t j) { std::swap(values[i], values[j]); });
  return values;
}

TEST(GoSortTest, StableForStrictWeakOrders) {
  std::mt19937 random(7);
  for (int size : {0, 1, 2, 19, 20, 21, 40, 41, 100, 333}) {
    std::vector<std::pair<int, int>> items;
    for (int i = 0; i < size; ++i) items.emplace_back(static_cast<int>(random() % 7), i);
    std::vector<std::pair<int, int>> expected = items;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    GoSliceStable(
        items.size(), [&](std::size_t i, std::size_t j) { return items[i].first < items[j].first; },
        [&](std::size_t i, std::size_t j) { std::swap(items[i], items[j]); });
    EXPECT_EQ(items, expected) << size;
  }
}

// With a comparison that always answers "less", insertion sort reverses
// short lists; kubectl shows exactly this for `$setElementOrder/finalizers: []`
// with new finalizers [a, b, c] (result [c, b, a]).
TEST(GoSortTest, AlwaysLessReversesShortLists) {
  EXPECT_EQ(SortedByGo({1, 2, 3}, [](int, int) { return true; }), (std::vector<int>{3, 2, 1}));
}

// Upstream's order comparison: items absent from the reference order
// (negative here) are "less" than anything. kubectl: original finalizers
// [x, z], patch [a, b] with an empty $setElementOrder -> [x, z, b, a].
TEST(GoSortTest, UpstreamComparisonWithAbsentItems) {
  const auto upstream_less = [](int a, int b) {
    if (a >= 0 && b >= 0) return a < b;
    return true;
  };
  EXPECT_EQ(SortedByGo({-1, -2, 0, 1}, upstream_less), (std::vector<int>{0, 1, -2, -1}));
}

}  // namespace
}  // namespace tjr::smp
