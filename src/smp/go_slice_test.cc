#include "smp/go_slice.h"

#include <gtest/gtest.h>

#include "smp/test_tree.h"

namespace tjr::smp {
namespace {

using testing::Flow;

// Capacities pinned with kubectl (Go 1.23): a finalizers list of 64 or 70
// decoded items still has room for one more (it aliases when merged), one of
// 71 or 16 does not.
TEST(GoSliceTest, DecodedCapacityFollowsGoAppendGrowth) {
  EXPECT_EQ(GoDecodedCapacity(0), 0u);
  EXPECT_EQ(GoDecodedCapacity(1), 1u);
  EXPECT_EQ(GoDecodedCapacity(2), 2u);
  EXPECT_EQ(GoDecodedCapacity(3), 4u);
  EXPECT_EQ(GoDecodedCapacity(5), 8u);
  EXPECT_EQ(GoDecodedCapacity(16), 16u);
  EXPECT_EQ(GoDecodedCapacity(18), 32u);
  EXPECT_EQ(GoDecodedCapacity(32), 32u);
  // 64 elements need 1024 bytes; with the 8-byte malloc header that is the
  // 1152-byte size class, which holds 71 elements.
  EXPECT_EQ(GoDecodedCapacity(33), 71u);
  EXPECT_EQ(GoDecodedCapacity(64), 71u);
  EXPECT_EQ(GoDecodedCapacity(71), 71u);
  EXPECT_EQ(GoDecodedCapacity(72), 143u);
}

TEST(GoSliceTest, GrowthBeyondThresholdUsesSizeClasses) {
  // oldCap 303 >= 256: 303 + (303 + 768) / 4 = 570 elements, 9120 bytes,
  // + 8 header -> class 9472 -> (9472 - 8) / 16.
  EXPECT_EQ(GoGrowCapacity(303, 304), 591u);
  // Large allocations round up to whole 8 KiB pages.
  EXPECT_EQ(GoGrowCapacity(0, 3000), 3072u);
}

TEST(GoSliceTest, AppendWithinCapacityWritesTheSharedBackingArray) {
  GoSlice original = GoSlice::Decoded({Flow("a"), Flow("b"), Flow("c")});
  ASSERT_EQ(original.capacity(), 4u);
  GoSlice both = original;
  both.Append(Flow("d"));
  both.Set(1, Flow("x"));
  EXPECT_EQ(original.size(), 3u);
  EXPECT_EQ(original[1].string_value(), "x");
  // Growing past the capacity moves `both` to a new array.
  both.Append(Flow("e"));
  both.Set(0, Flow("y"));
  EXPECT_EQ(original[0].string_value(), "a");
}

TEST(GoSliceTest, RemoveAtShiftsInPlaceAndLeavesTheLastSlot) {
  GoSlice original = GoSlice::Decoded({Flow("a"), Flow("b"), Flow("c")});
  GoSlice shorter = original;
  shorter.RemoveAt(0);
  ASSERT_EQ(shorter.size(), 2u);
  EXPECT_EQ(original[0].string_value(), "b");
  EXPECT_EQ(original[1].string_value(), "c");
  EXPECT_EQ(original[2].string_value(), "c");
  shorter.Append(Flow("z"));
  EXPECT_EQ(original[2].string_value(), "z");
}

}  // namespace
}  // namespace tjr::smp
