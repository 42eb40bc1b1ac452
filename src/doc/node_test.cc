#include "doc/node.h"

#include <gtest/gtest.h>

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
