#include "conformance/compare.h"

#include <gtest/gtest.h>

#include "doc/objects.h"
#include "json/json.h"

namespace tjr::conformance {
namespace {

doc::Node Json(std::string_view text) {
  auto node = json::Read(text, "test.json");
  EXPECT_TRUE(node.ok()) << (node.ok() ? "" : node.error().ToString());
  return node.ok() ? *node : doc::Node();
}

doc::Node Pod(std::string_view name, std::string_view spec = "{}") {
  return Json(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" +
              std::string(name) + R"("}, "spec": )" + std::string(spec) + "}");
}

TEST(CompareObjectsTest, MatchesByIdWhateverTheOrderOfObjectsAndKeys) {
  std::vector<doc::Node> expected = {Pod("a", R"({"x": 1, "y": [1, 2]})"), Pod("b")};
  std::vector<doc::Node> actual = {
      Pod("b"),
      Json(R"({"spec": {"y": [1, 2], "x": 1}, "metadata": {"name": "a"}, "kind": "Pod",
               "apiVersion": "v1"})")};
  EXPECT_EQ(CompareObjects(expected, actual), "");
}

TEST(CompareObjectsTest, ReportsMissingAndUnexpectedObjects) {
  std::string report = CompareObjects({Pod("a")}, {Pod("b")});
  EXPECT_NE(report.find("missing object v1/Pod a\n"), std::string::npos) << report;
  EXPECT_NE(report.find("unexpected object v1/Pod b:\n"), std::string::npos) << report;
  EXPECT_NE(report.find("name: b\n"), std::string::npos) << report;
}

TEST(CompareObjectsTest, NamespaceIsPartOfTheId) {
  doc::Node in_ns = Json(R"({"apiVersion": "v1", "kind": "Pod",
                             "metadata": {"name": "a", "namespace": "ns"}})");
  std::string report = CompareObjects({in_ns}, {Pod("a")});
  EXPECT_NE(report.find("missing object v1/Pod ns/a"), std::string::npos) << report;
}

TEST(CompareObjectsTest, ReportsDuplicateIds) {
  std::string report = CompareObjects({Pod("a")}, {Pod("a"), Pod("a")});
  EXPECT_NE(report.find("the output has two objects v1/Pod a"), std::string::npos) << report;
}

TEST(CompareObjectsTest, ADifferenceGetsItsPathAndAUnifiedDiff) {
  std::string report = CompareObjects({Pod("a", R"({"list": ["x", "v"]})")},
                                      {Pod("a", R"({"list": ["x", "w"]})")});
  EXPECT_NE(report.find("object v1/Pod a differs; first at spec.list[1]: expected string \"v\", "
                        "got string \"w\"\n"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("--- expected\n+++ actual\n@@ "), std::string::npos) << report;
  EXPECT_NE(report.find("\n-  - v\n+  - w\n"), std::string::npos) << report;
}

TEST(CompareObjectsTest, ListsAreOrderedAndTypesExact) {
  EXPECT_NE(CompareObjects({Pod("a", R"({"l": [1, 2]})")}, {Pod("a", R"({"l": [2, 1]})")}), "");
  EXPECT_NE(CompareObjects({Pod("a", R"({"v": 1})")}, {Pod("a", R"({"v": "1"})")}), "");
  EXPECT_NE(CompareObjects({Pod("a", R"({"v": 1})")}, {Pod("a", R"({"v": 1.0})")}), "");
}

TEST(FirstDifferenceTest, NamesTheFirstDifferingField) {
  EXPECT_EQ(FirstDifference(Json(R"({"a": 1})"), Json(R"({"a": 1})")), "");
  EXPECT_EQ(FirstDifference(Json(R"({"a": 1})"), Json(R"({"a": 1.0})")),
            "a: expected int 1, got float 1");
  EXPECT_EQ(FirstDifference(Json(R"({"a": {"b": [true]}})"), Json(R"({"a": {"b": [null]}})")),
            "a.b[0]: expected bool true, got null");
  EXPECT_EQ(FirstDifference(Json(R"({"a": 1, "b": 2})"), Json(R"({"a": 1})")),
            "b: expected int 2, missing");
  EXPECT_EQ(FirstDifference(Json(R"({"a": 1})"), Json(R"({"a": 1, "c": {}})")),
            "c: not expected, got mapping of 0 fields");
  EXPECT_EQ(FirstDifference(Json(R"({"l": [1]})"), Json(R"({"l": [1, 2]})")),
            "l: expected sequence of 1 items, got sequence of 2 items");
  EXPECT_EQ(FirstDifference(Json("[1]"), Json("{}")),
            "(root): expected sequence of 1 items, got mapping of 0 fields");
}

TEST(MissingErrorsTest, EachLineMustBeASubstringOfSomeDiagnostic) {
  Diagnostics produced = {
      MakeError(Location{InternSourceName("input/patch.yaml"), 3, 5}, "spec.containers",
                "does not contain declared merge key: name"),
      MakeError({}, "", "second"),
  };
  EXPECT_TRUE(MissingErrors({"input/patch.yaml:3:5: error: spec.containers:", "merge key: name",
                             "error: second"},
                            produced)
                  .empty());
  EXPECT_EQ(MissingErrors({"merge key: name", "third", "patch.yaml:4"}, produced),
            (std::vector<std::string>{"third", "patch.yaml:4"}));
}

TEST(SortedByIdTest, OrdersByApiVersionKindNamespaceName) {
  std::vector<doc::Node> sorted = SortedById({
      Pod("b"),
      Json(R"({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "z"}})"),
      Pod("a"),
      Json(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "n"}})"),
  });
  std::vector<std::string> ids;
  for (const doc::Node& object : sorted) ids.push_back(doc::ObjectId::Of(object).ToString());
  EXPECT_EQ(ids, (std::vector<std::string>{"batch/v1/Job z", "v1/Pod a", "v1/Pod b",
                                           "v1/Pod n/a"}));
}

}  // namespace
}  // namespace tjr::conformance
