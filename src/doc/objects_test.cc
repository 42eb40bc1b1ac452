#include "doc/objects.h"

#include <gtest/gtest.h>

namespace tjr::doc {
namespace {

Node Object(const char* kind, const char* name) {
  Node metadata = Node::Mapping();
  metadata.Set("name", Node::String(name));
  Node object = Node::Mapping();
  object.Set("apiVersion", Node::String("v1"));
  object.Set("kind", Node::String(kind));
  object.Set("metadata", metadata);
  return object;
}

TEST(ObjectsTest, FlattensListsRecursivelyInOrder) {
  Node inner = Node::Mapping();
  inner.Set("kind", Node::String("List"));
  Node inner_items = Node::Sequence();
  inner_items.push_back(Object("Pod", "b"));
  inner.Set("items", inner_items);

  Node list = Node::Mapping();
  list.Set("apiVersion", Node::String("v1"));
  list.Set("kind", Node::String("List"));
  Node items = Node::Sequence();
  items.push_back(Object("Pod", "a"));
  items.push_back(inner);
  list.Set("items", items);

  auto flat = FlattenLists({list, Object("PodTemplate", "c")});
  ASSERT_TRUE(flat.ok());
  ASSERT_EQ(flat->size(), 3u);
  EXPECT_EQ(ObjectId::Of((*flat)[0]).name, "a");
  EXPECT_EQ(ObjectId::Of((*flat)[1]).name, "b");
  EXPECT_EQ(ObjectId::Of((*flat)[2]).kind, "PodTemplate");
}

// kubectl v1.32.4 patches the item of `{apiVersion: v1, kind: PodList,
// items: [{metadata: {name: a}, spec: ...}]}` as a v1 Pod; with `kind: List`
// or an item that has an apiVersion it refuses the item for its missing kind.
TEST(ObjectsTest, ItemsOfATypedListGetItsKindAndApiVersion) {
  Node bare = Node::Mapping();
  Node metadata = Node::Mapping();
  metadata.Set("name", Node::String("a"));
  bare.Set("metadata", metadata);
  Node versioned = bare;
  versioned.Set("apiVersion", Node::String("v2"));
  Node wrong = bare;
  wrong.Set("kind", Node::Int(5));  // not a string: read as no kind
  Node items = Node::Sequence();
  items.push_back(bare);
  items.push_back(versioned);
  items.push_back(wrong);
  Node list = Node::Mapping();
  list.Set("apiVersion", Node::String("v1"));
  list.Set("kind", Node::String("PodList"));
  list.Set("items", items);

  auto flat = FlattenLists({list});
  ASSERT_TRUE(flat.ok());
  ASSERT_EQ(flat->size(), 3u);
  EXPECT_EQ(ObjectId::Of((*flat)[0]).ToString(), "v1/Pod a");
  EXPECT_EQ(ObjectId::Of((*flat)[1]).ToString(), "v2/ a");
  EXPECT_EQ(ObjectId::Of((*flat)[2]).ToString(), "v1/Pod a");

  list.Set("kind", Node::String("List"));
  flat = FlattenLists({list});
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(ObjectId::Of((*flat)[0]).ToString(), "/ a");
}

TEST(ObjectsTest, RejectsDocumentsThatAreNotObjects) {
  auto flat = FlattenLists({Node::String("hello", Location{InternSourceName("x.yaml"), 1, 1})});
  ASSERT_FALSE(flat.ok());
  EXPECT_EQ(flat.error().ToString(),
            "x.yaml:1:1: error: expected an object (a YAML mapping), found string");
}

TEST(ObjectsTest, IdentityPrintsNamespaceWhenSet) {
  Node pod = Object("Pod", "a");
  EXPECT_EQ(ObjectId::Of(pod).ToString(), "v1/Pod a");
  pod.FindMutable("metadata")->Set("namespace", Node::String("ml"));
  EXPECT_EQ(ObjectId::Of(pod).ToString(), "v1/Pod ml/a");
  EXPECT_LT(ObjectId::Of(Object("Pod", "a")), ObjectId::Of(Object("Pod", "b")));
}

}  // namespace
}  // namespace tjr::doc
