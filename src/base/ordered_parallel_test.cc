#include "base/ordered_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace tjr {
namespace {

TEST(OrderedParallelFor, DeliversInIndexOrderForAnyThreadsAndWindow) {
  for (unsigned threads : {1u, 2u, 5u}) {
    for (std::size_t window : {std::size_t{1}, std::size_t{2}, std::size_t{64}}) {
      std::vector<std::size_t> seen;
      OrderedParallelFor(
          100, threads, window,
          [](std::size_t i) {
            // Later indices finish first now and then.
            if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
            return i * 3;
          },
          [&](std::size_t value) { seen.push_back(value); });
      ASSERT_EQ(seen.size(), 100u);
      for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], i * 3);
    }
  }
}

TEST(OrderedParallelFor, NeverRunsMoreThanTheWindowAheadOfTheSink) {
  std::atomic<std::size_t> started{0};
  std::size_t sunk = 0;
  std::size_t worst = 0;
  OrderedParallelFor(
      200, 4, 8,
      [&](std::size_t i) {
        started.fetch_add(1);
        return i;
      },
      [&](std::size_t) {
        ++sunk;
        worst = std::max(worst, started.load() - sunk);
      });
  EXPECT_EQ(sunk, 200u);
  EXPECT_LE(worst, 8u);
}

TEST(OrderedParallelFor, ClaimSizeFollowsThreadsAndWindow) {
  EXPECT_EQ(OrderedClaimSize(2, 64), 8u);
  EXPECT_EQ(OrderedClaimSize(4, 16), 2u);
  EXPECT_EQ(OrderedClaimSize(2, 1), 1u);
  EXPECT_EQ(OrderedClaimSize(8, 8), 1u);
}

// A claim is a run of consecutive indices done by one worker: with room for
// all of them, claims start at multiples of the claim size.
TEST(OrderedParallelFor, WorkersClaimRunsOfIndices) {
  const std::size_t claim = OrderedClaimSize(2, 64);
  ASSERT_GT(claim, 1u);
  std::vector<std::thread::id> ran_on(64);
  std::vector<std::size_t> seen;
  OrderedParallelFor(
      64, 2, 64,
      [&](std::size_t i) {
        ran_on[i] = std::this_thread::get_id();
        if (i % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
        return i;
      },
      [&](std::size_t value) { seen.push_back(value); });
  ASSERT_EQ(seen.size(), 64u);
  for (std::size_t i = 0; i < 64; ++i) {
    EXPECT_EQ(seen[i], i);
    EXPECT_EQ(ran_on[i], ran_on[i - i % claim]) << i;
  }
}

TEST(OrderedParallelFor, NothingToDo) {
  int calls = 0;
  OrderedParallelFor(0, 4, 8, [](std::size_t i) { return i; }, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace tjr
