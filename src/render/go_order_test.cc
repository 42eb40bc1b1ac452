// OrderAsGo: encoding/json's key order (struct declaration order, sorted map
// keys), and the sharing that keeps it cheap on already-ordered trees.
#include "render/go_order.h"

#include <gtest/gtest.h>

#include <string>

#include "render/go_types.h"
#include "render/test_util.h"

namespace tjr::render {
namespace {

using testing::Yaml;

// The keys of `node` itself, comma-separated.
std::string Keys(const doc::Node& node) {
  std::string keys;
  for (const doc::Field& f : node.fields()) keys += (keys.empty() ? "" : ",") + f.key;
  return keys;
}

const GoTypes& Types() {
  Result<const GoTypes*> types = LoadGoTypes(trainer::kDefaultRelease);
  EXPECT_TRUE(types.ok());
  return **types;
}

TEST(OrderAsGo, StructFieldsInDeclarationOrderUnknownKeysLast) {
  doc::Node container = Yaml("zz: 1\nenv: []\nimage: i\nname: c\nyy: 2\ncommand: [a]\n");
  doc::Node ordered = OrderAsGo(container, *Types().container);
  EXPECT_EQ(Keys(ordered), "name,image,command,env,zz,yy");
  EXPECT_EQ(ordered, container);  // same content, other order
}

TEST(OrderAsGo, MapKeysSortedBytewiseAndNestedValuesOrdered) {
  doc::Node pod = Yaml(R"(
nodeSelector: {b: "1", B: "2", a: "3"}
containers:
- {image: i, name: c}
)");
  doc::Node ordered = OrderAsGo(pod, *Types().pod_spec);
  EXPECT_EQ(Keys(ordered), "containers,nodeSelector");
  EXPECT_EQ(Keys(*ordered.Find("nodeSelector")), "B,a,b");
  EXPECT_EQ(Keys((*ordered.Find("containers"))[0]), "name,image");
}

TEST(OrderAsGo, OrderedSubtreesAreSharedNotCopied) {
  doc::Node pod = Yaml(R"(
containers:
- {name: c, image: i}
- {image: j, name: d}
nodeSelector: {a: "1"}
)");
  doc::Node ordered = OrderAsGo(pod, *Types().pod_spec);
  const doc::Node& before = *pod.Find("containers");
  const doc::Node& after = *ordered.Find("containers");
  EXPECT_TRUE(after[0].SharesRepresentationWith(before[0]));
  EXPECT_FALSE(after[1].SharesRepresentationWith(before[1]));
  EXPECT_TRUE(ordered.Find("nodeSelector")->SharesRepresentationWith(*pod.Find("nodeSelector")));
  doc::Node again = OrderAsGo(ordered, *Types().pod_spec);
  EXPECT_TRUE(again.SharesRepresentationWith(ordered));
}

}  // namespace
}  // namespace tjr::render
