#include "doc/node.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr::doc {
namespace {

Node SmallMap() {
  Node m = Node::Mapping();
  m.Set("name", Node::String("trainer"));
  m.Set("replicas", Node::Int(2));
  return m;
}

TEST(NodeTest, ScalarsKeepKindValueAndSourceText) {
  EXPECT_TRUE(Node().is_null());
  EXPECT_EQ(Node::Int(31, {}, "0x1F").int_value(), 31);
  EXPECT_EQ(Node::Int(31, {}, "0x1F").source_text(), "0x1F");
  EXPECT_DOUBLE_EQ(Node::Float(0.5).float_value(), 0.5);
  EXPECT_TRUE(Node::Bool(true).bool_value());
  EXPECT_EQ(Node::String("x").string_value(), "x");
  EXPECT_EQ(KindName(Kind::kMapping), "object");
}

TEST(NodeTest, MappingKeepsInsertionOrderAndReplacesInPlace) {
  Node m = SmallMap();
  m.Set("image", Node::String("a"));
  m.Set("name", Node::String("node"));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.fields()[0].key, "name");
  EXPECT_EQ(m.fields()[0].value.string_value(), "node");
  EXPECT_EQ(m.fields()[2].key, "image");
  EXPECT_TRUE(m.Erase("replicas"));
  EXPECT_FALSE(m.Erase("replicas"));
  EXPECT_EQ(m.Find("replicas"), nullptr);
  EXPECT_EQ(m.size(), 2u);
}

TEST(NodeTest, CopiesShareUntilOneIsChanged) {
  Node runtime = Node::Mapping();
  runtime.Set("spec", SmallMap());
  Node copy = runtime;
  EXPECT_TRUE(copy.SharesRepresentationWith(runtime));

  copy.FindMutable("spec")->Set("replicas", Node::Int(8));
  EXPECT_EQ(runtime.Find("spec")->Find("replicas")->int_value(), 2);
  EXPECT_EQ(copy.Find("spec")->Find("replicas")->int_value(), 8);
  // The untouched sibling is still shared.
  EXPECT_TRUE(copy.Find("spec")->Find("name")->SharesRepresentationWith(
      *runtime.Find("spec")->Find("name")));
}

// Large mappings are indexed once searched: lookups, replacements,
// appends, erasures, copies and changes through mutable_fields agree with
// the order-keeping linear mapping.
TEST(NodeTest, LargeMappingsAnswerAsSmallOnes) {
  constexpr int kKeys = 5000;
  Node m = Node::Mapping();
  for (int i = 0; i < kKeys; ++i) m.Set("k" + std::to_string(i), Node::Int(i));
  ASSERT_EQ(m.size(), static_cast<std::size_t>(kKeys));
  for (int i = 0; i < kKeys; i += 7) {
    ASSERT_NE(m.Find("k" + std::to_string(i)), nullptr) << i;
    EXPECT_EQ(m.Find("k" + std::to_string(i))->int_value(), i);
  }
  EXPECT_EQ(m.Find("k" + std::to_string(kKeys)), nullptr);
  m.Set("k10", Node::String("ten"));  // in place
  EXPECT_EQ(m.size(), static_cast<std::size_t>(kKeys));
  EXPECT_EQ(m.fields()[10].value.string_value(), "ten");
  m.Set("new", Node::Int(-1));  // appended, and found
  EXPECT_EQ(m.fields().back().key, "new");
  EXPECT_EQ(m.Find("new")->int_value(), -1);

  Node copy = m;  // shares, then detaches on a change
  *copy.FindMutable("k20") = Node::Null();
  EXPECT_TRUE(m.Find("k20")->is_int());
  EXPECT_TRUE(copy.Find("k20")->is_null());
  copy.Set("k21", Node::Int(0));
  EXPECT_EQ(m.Find("k21")->int_value(), 21);
  EXPECT_EQ(copy.Find("k21")->int_value(), 0);

  EXPECT_TRUE(m.Erase("k5"));
  EXPECT_EQ(m.Find("k5"), nullptr);
  EXPECT_EQ(m.Find("k6")->int_value(), 6);
  EXPECT_EQ(m.fields()[5].key, "k6");

  // A key renamed through mutable_fields is found under its new name.
  m.mutable_fields()[0].key = "renamed";
  EXPECT_EQ(m.Find("k0"), nullptr);
  EXPECT_EQ(m.Find("renamed")->int_value(), 0);
  // A duplicate pushed by hand: the first field of a key wins, as before.
  m.mutable_fields().push_back(Field{"k1", Node::Int(100), {}});
  EXPECT_EQ(m.Find("k1")->int_value(), 1);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(m.Find("k1")->int_value(), 1);

  Node same = Node::Mapping();  // equality ignores order
  for (int i = kKeys; i-- > 0;) same.Set("k" + std::to_string(i), Node::Int(i));
  Node ordered = Node::Mapping();
  for (int i = 0; i < kKeys; ++i) ordered.Set("k" + std::to_string(i), Node::Int(i));
  EXPECT_EQ(same, ordered);
  ordered.Set("k4999", Node::Int(0));
  EXPECT_NE(same, ordered);
}

TEST(NodeTest, EqualityIsDataEquality) {
  Node a = SmallMap();
  Node b = Node::Mapping();
  b.Set("replicas", Node::Int(2));
  b.Set("name", Node::String("trainer"));
  EXPECT_EQ(a, b);  // maps are unordered
  EXPECT_NE(Node::Int(1), Node::Float(1.0));  // types are exact
  EXPECT_NE(Node::String("1"), Node::Int(1));
  Node s1 = Node::Sequence();
  s1.push_back(Node::Int(1));
  s1.push_back(Node::Int(2));
  Node s2 = Node::Sequence();
  s2.push_back(Node::Int(2));
  s2.push_back(Node::Int(1));
  EXPECT_NE(s1, s2);  // sequences are ordered
  EXPECT_EQ(CountNodes(s1), 3u);
}

}  // namespace
}  // namespace tjr::doc
