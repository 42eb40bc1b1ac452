#include "smp/element_order.h"

#include <gtest/gtest.h>

#include "smp/test_tree.h"

namespace tjr::smp {
namespace {

using testing::Flow;

std::vector<doc::Node> Items(std::string_view flow) { return Flow(flow).items(); }

doc::Node List(std::vector<doc::Node> items) {
  doc::Node list = doc::Node::Sequence();
  list.mutable_items() = std::move(items);
  return list;
}

// Merging O with P where every P item is new or overrides one O item:
// the merge result is O (overrides in place) followed by the new P items.
doc::Node Ordered(std::string_view original, std::string_view patch, std::string_view key) {
  std::vector<doc::Node> merged = Items(original);
  const std::vector<doc::Node> patch_items = Items(patch);
  for (const doc::Node& item : patch_items) {
    bool replaced = false;
    for (doc::Node& existing : merged) {
      if (*existing.Find(key) == *item.Find(key)) {
        existing = item;
        replaced = true;
      }
    }
    if (!replaced) merged.push_back(item);
  }
  Outcome<Partition> parts = PartitionMaps(merged, patch_items, key);
  EXPECT_TRUE(parts.ok());
  Outcome<std::vector<doc::Node>> ordered =
      NormalizeElementOrder(parts.value().patch_items, parts.value().server_only, patch_items,
                            Items(original), key, true);
  EXPECT_TRUE(ordered.ok());
  return List(ordered.value());
}

// The list-order table of the trainer reference (podTemplateOverrides 2.4,
// runtimePatches 2.3), by merge key only.
TEST(ElementOrderTest, TrainerOrderTable) {
  EXPECT_TRUE(Ordered("[{k: A}, {k: B}]", "[{k: C}]", "k") == Flow("[{k: C}, {k: A}, {k: B}]"));
  EXPECT_TRUE(Ordered("[{k: A}, {k: B}]", "[{k: A, v: 1}, {k: C}]", "k") ==
              Flow("[{k: A, v: 1}, {k: C}, {k: B}]"));
  EXPECT_TRUE(Ordered("[{k: A}, {k: B}, {k: C}]", "[{k: C}, {k: A}]", "k") ==
              Flow("[{k: B}, {k: C}, {k: A}]"));
  EXPECT_TRUE(Ordered("[{k: C}, {k: A}, {k: B}]", "[{k: D}, {k: B}]", "k") ==
              Flow("[{k: D}, {k: C}, {k: A}, {k: B}]"));
  EXPECT_TRUE(Ordered("[{k: A}, {k: B}, {k: C}]", "[{k: B}, {k: X}]", "k") ==
              Flow("[{k: A}, {k: B}, {k: X}, {k: C}]"));
  EXPECT_TRUE(Ordered("[{k: A}, {k: B}, {k: C}]", "[{k: X}, {k: B}]", "k") ==
              Flow("[{k: X}, {k: A}, {k: B}, {k: C}]"));
}

TEST(ElementOrderTest, IndexComparesGoValues) {
  const std::vector<doc::Node> list = Items("[{k: 1}, {k: 1.0}, {k: \"1\"}, {}]");
  EXPECT_EQ(IndexOf(list, Flow("{k: 1.0}"), "k", true).value(), 1);
  EXPECT_EQ(IndexOf(list, Flow("{k: \"1\"}"), "k", true).value(), 2);
  // A missing merge key is nil, and nil equals nil.
  EXPECT_EQ(IndexOf(list, Flow("{other: x}"), "k", true).value(), 3);
  EXPECT_EQ(IndexOf(Items("[a, b]"), Flow("b"), "", false).value(), 1);
  EXPECT_EQ(IndexOf(Items("[a, b]"), Flow("c"), "", false).value(), -1);
  const Outcome<long> panics = IndexOf(Items("[{k: {x: 1}}]"), Flow("{k: {x: 1}}"), "k", true);
  ASSERT_FALSE(panics.ok());
  EXPECT_NE(panics.error().find("comparing uncomparable type map[string]interface {}"),
            std::string::npos);
}

TEST(ElementOrderTest, SliceElementTypeMessages) {
  const std::vector<doc::Node> strings = Items("[a, b]");
  const std::vector<doc::Node> numbers = Items("[1]");
  const std::vector<doc::Node> floats = Items("[1.5]");
  const std::vector<doc::Node> empty;
  EXPECT_EQ(SliceElementType({&strings, &empty}).value(), GoType::kString);
  EXPECT_EQ(SliceElementType({&strings, &numbers}).error(),
            "list element types are not identical: [[a b] [1]]");
  EXPECT_EQ(SliceElementType({&numbers, &floats}).error(),
            "list element types are not identical: [[1] [1.5]]");
  EXPECT_EQ(SliceElementType({&empty, &empty}).error(), "no elements in any of the given slices");
  const std::vector<doc::Node> nested = Items("[[a]]");
  EXPECT_EQ(SliceElementType({&nested}).error(), "lists of lists are not supported");
}

TEST(ElementOrderTest, SetElementOrderValidation) {
  EXPECT_TRUE(ValidatePatchWithSetOrderList(Items("[a, c]"), Items("[a, b, c]"), "").ok());
  EXPECT_TRUE(ValidatePatchWithSetOrderList(Items("[]"), Items("[a]"), "").ok());
  EXPECT_EQ(ValidatePatchWithSetOrderList(Items("[c, a]"), Items("[a, b, c]"), "").error(),
            "The order in patch list:\n[c a]\n doesn't match $setElementOrder list:\n[a b c]\n");
  // Deletions and other directive items are skipped...
  EXPECT_TRUE(ValidatePatchWithSetOrderList(
                  Items("[{n: x, $patch: delete}, {n: z, $patch: replace}, {n: a}]"),
                  Items("[{n: a}]"), "n")
                  .ok());
  // ...but only while the order list lasts: a trailing directive item is a
  // mismatch.
  EXPECT_FALSE(ValidatePatchWithSetOrderList(Items("[{n: a}, {n: z, $patch: replace}]"),
                                             Items("[{n: a}]"), "n")
                   .ok());
  EXPECT_EQ(ValidatePatchWithSetOrderList(Items("[{n: a}]"), Items("[{m: a}]"), "n").error(),
            "map: map[m:a] does not contain declared merge key: n");
  EXPECT_EQ(ValidatePatchWithSetOrderList(Items("[a]"), Items("[{n: a}]"), "n").error(),
            "expected a map[string]interface {}, but received a string");
}

TEST(ElementOrderTest, PrimitivePartitionHashesLikeAGoMap) {
  Outcome<Partition> parts = PartitionPrimitives(Items("[a, b, 1]"), Items("[1.0, b]"));
  ASSERT_TRUE(parts.ok());
  EXPECT_TRUE(List(parts.value().patch_items) == Flow("[b]"));
  EXPECT_TRUE(List(parts.value().server_only) == Flow("[a, 1]"));
  const Outcome<Partition> unhashable = PartitionPrimitives(Items("[a]"), Items("[{a: 1}]"));
  ASSERT_FALSE(unhashable.ok());
  EXPECT_NE(unhashable.error().find("hash of unhashable type map[string]interface {}"),
            std::string::npos);
}

TEST(ElementOrderTest, FindByKeyNeedsMapsUpToTheMatch) {
  const Outcome<Found> found = FindMapByKeyValue(Items("[{n: a}, {n: b}, x]"), "n", &Items("[b]")[0]);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found.value().index, 1u);
  const Outcome<Found> bad = FindMapByKeyValue(Items("[{n: a}, x, {n: b}]"), "n", &Items("[b]")[0]);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "value for key 1 is not a map");
}

}  // namespace
}  // namespace tjr::smp
