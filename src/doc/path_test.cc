#include "doc/path.h"

#include <gtest/gtest.h>

namespace tjr::doc {
namespace {

// spec: {template: {name: t, nothing: ~, list: [a, b]}, count: 3}
Node Sample() {
  Node list = Node::Sequence();
  list.push_back(Node::String("a"));
  list.push_back(Node::String("b"));
  Node inner = Node::Mapping();
  inner.Set("name", Node::String("t"));
  inner.Set("nothing", Node::Null());
  inner.Set("list", list);
  Node spec = Node::Mapping();
  spec.Set("template", inner);
  spec.Set("count", Node::Int(3));
  Node root = Node::Mapping();
  root.Set("spec", spec);
  return root;
}

TEST(PathTest, AtTakesANullValueAsAbsentAndFindPathKeepsIt) {
  Node root = Sample();
  EXPECT_EQ(AtPath(&root, {"spec", "template", "nothing"}), nullptr);
  const Node* null = FindPath(root, {"spec", "template", "nothing"});
  ASSERT_NE(null, nullptr);
  EXPECT_TRUE(null->is_null());
  EXPECT_EQ(FindPath(root, {"spec", "template", "nothing", "deeper"}), nullptr);
  EXPECT_EQ(AtPath(&root, {"spec", "template", "name"})->string_value(), "t");
}

TEST(PathTest, NoStepThroughAScalarASequenceOrNull) {
  Node root = Sample();
  EXPECT_EQ(FindPath(root, {"spec", "count", "x"}), nullptr);
  EXPECT_EQ(FindPath(root, {"spec", "template", "list", "0"}), nullptr);
  EXPECT_EQ(FindPath(nullptr, {"a"}), nullptr);
  EXPECT_EQ(At(nullptr, "a"), nullptr);
  EXPECT_EQ(FindPath(root, {}), &root) << "the empty path is the node itself";
}

TEST(PathTest, StringsAndItems) {
  Node root = Sample();
  const Node* inner = FindPath(root, {"spec", "template"});
  EXPECT_EQ(StringAt(inner, "name"), "t");
  EXPECT_EQ(StringAt(inner, "nothing"), "");
  EXPECT_EQ(StringAt(*inner, "list"), "");
  EXPECT_EQ(StringAtPath(root, {"spec", "template", "name"}), "t");
  EXPECT_EQ(StringAtPath(root, {"spec", "count"}, "none"), "none");
  EXPECT_EQ(Items(At(inner, "list")).size(), 2u);
  EXPECT_TRUE(Items(At(inner, "name")).empty());
  EXPECT_TRUE(Items(nullptr).empty());
}

}  // namespace
}  // namespace tjr::doc
