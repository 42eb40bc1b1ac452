#include "explain/paths.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace tjr::explain {
namespace {

doc::Node Json(std::string_view text) {
  auto node = json::Read(text, "test.json");
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? *node : doc::Node();
}

TEST(PathsTest, ChildPathJoinsPlainKeysWithDots) {
  EXPECT_EQ(ChildPath("", "spec"), "spec");
  EXPECT_EQ(ChildPath("spec", "replicas"), "spec.replicas");
  EXPECT_EQ(ChildPath("spec.template", "metadata"), "spec.template.metadata");
}

TEST(PathsTest, ChildPathBracketsKeysThatAreNotIdentifiers) {
  EXPECT_EQ(ChildPath("metadata.labels", "app.kubernetes.io/name"),
            "metadata.labels[app.kubernetes.io/name]");
  EXPECT_EQ(ChildPath("a", "x/y"), "a[x/y]");
  EXPECT_EQ(ChildPath("a", "x[0]"), "a[x[0]]");
  EXPECT_EQ(ChildPath("a", "k=v"), "a[k=v]");
  EXPECT_EQ(ChildPath("a", "two words"), "a[two words]");
  EXPECT_EQ(ChildPath("a", ""), "a[]");
  EXPECT_EQ(ChildPath("", "kueue.x-k8s.io/queue"), "[kueue.x-k8s.io/queue]");
  EXPECT_EQ(ChildPath("a", "with-dash_and:colon"), "a.with-dash_and:colon");
}

TEST(PathsTest, ListKeyOfTriesTheCandidatesInOrder) {
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": "a"}, {"name": "b"}])")), "name");
  EXPECT_EQ(ListKeyOf(Json(R"([{"mountPath": "/a", "name": "v"}, {"mountPath": "/b", "name": "v"}])")),
            "mountPath");
  EXPECT_EQ(ListKeyOf(Json(R"([{"containerPort": 80}, {"containerPort": 443}])")), "containerPort");
  EXPECT_EQ(ListKeyOf(Json(R"([{"key": "a", "operator": "Exists"}, {"key": "b"}])")), "key");
}

TEST(PathsTest, ListKeyOfNeedsEveryItemToHoldADistinctScalar) {
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": "a"}, {"name": "a"}])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": "a"}, {"image": "b"}])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": "a"}, {"name": null}])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": {"x": 1}}, {"name": "b"}])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": "a"}, "b"])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"(["a", "b"])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"([])")), "");
  EXPECT_EQ(ListKeyOf(Json(R"({"name": "a"})")), "");
  // Distinct by JSON text, as tjrender diff compares them.
  EXPECT_EQ(ListKeyOf(Json(R"([{"name": "80"}, {"name": 80}])")), "name");
}

TEST(PathsTest, ItemPathUsesTheListKeyOrTheIndex) {
  const doc::Node env = Json(R"([{"name": "A", "value": "1"}, {"name": "B"}])");
  EXPECT_EQ(ItemPath("spec.containers[name=main].env", env, 1),
            "spec.containers[name=main].env[name=B]");
  const doc::Node ports = Json(R"([{"containerPort": 8080}])");
  EXPECT_EQ(ItemPath("ports", ports, 0), "ports[containerPort=8080]");
  const doc::Node args = Json(R"([{"a": 1}, {"a": 1}])");
  EXPECT_EQ(ItemPath("x", args, 1), "x[1]");
  EXPECT_EQ(ItemPath("x", env, 0, ""), "x[0]");
  EXPECT_EQ(ItemPath("", args, 0), "[0]");
}

TEST(PathsTest, IsScalarList) {
  EXPECT_TRUE(IsScalarList(Json(R"(["a", 1, true, null])")));
  EXPECT_TRUE(IsScalarList(Json(R"([])")));
  EXPECT_FALSE(IsScalarList(Json(R"(["a", {"b": 1}])")));
  EXPECT_FALSE(IsScalarList(Json(R"([[1]])")));
}

}  // namespace
}  // namespace tjr::explain
