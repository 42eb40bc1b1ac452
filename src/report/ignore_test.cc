#include "report/ignore.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::report {
namespace {

doc::Node Object(const char* text) {
  auto documents = yaml::ReadStream(text, "obj.yaml");
  EXPECT_TRUE(documents.ok());
  return (*documents)[0];
}

// A tjrender warning written "[rule] text".
Finding Warn(const std::string& message, ObjectRef object = {}) {
  const std::size_t close = message.find("] ");
  Diagnostic d = MakeWarning({}, message.substr(1, close - 1), message.substr(close + 2));
  return MakeFinding(d, std::move(object));
}

const ObjectRef kJob{"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "job"};

TEST(Ignore, SplitsRuleLists) {
  EXPECT_EQ(SplitRuleList(" a, b,,c "), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(SplitRuleList("").empty());
}

TEST(Ignore, PrefixRules) {
  EXPECT_TRUE(Matches({"upstream/*", ""}, "upstream/warning"));
  EXPECT_FALSE(Matches({"upstream/*", ""}, "volume-two-sources"));
  EXPECT_FALSE(Matches({"volume", ""}, "volume-two-sources"));
}

TEST(Ignore, AnnotationWithReason) {
  Diagnostics problems;
  auto rules = ObjectIgnores(Object("metadata:\n  annotations:\n"
                                    "    tjrender.dev/ignore: volume-two-sources, env-value-and-valuefrom\n"
                                    "    tjrender.dev/ignore-reason: the init script reads both\n"),
                             &problems);
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[1].rule, "env-value-and-valuefrom");
  EXPECT_EQ(rules[1].reason, "the init script reads both");
  EXPECT_TRUE(problems.empty());
}

TEST(Ignore, AnnotationWithoutReasonStillAppliesAndWarns) {
  Diagnostics problems;
  auto rules = ObjectIgnores(
      Object("metadata:\n  annotations:\n    tjrender.dev/ignore: volume-two-sources\n"), &problems);
  ASSERT_EQ(rules.size(), 1u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(RuleId(problems[0]), "ignore-without-reason");
  EXPECT_EQ(problems[0].location.line, 3u);
}

TEST(Ignore, OnlyWarningsOfTheNamedObjectOrEverywhere) {
  Ignores ignores;
  ignores.by_object[kJob.Key()] = {{"volume-two-sources", "why"}};
  ignores.global = {{"env-value-and-valuefrom", "why"}};
  EXPECT_TRUE(Ignored(ignores, Warn("[volume-two-sources] x", kJob)));
  ObjectRef other = kJob;
  other.name = "other";
  EXPECT_FALSE(Ignored(ignores, Warn("[volume-two-sources] x", other)));
  EXPECT_TRUE(Ignored(ignores, Warn("[env-value-and-valuefrom] x", other)));
  Finding error = Warn("[volume-two-sources] x", kJob);
  error.diagnostic.severity = Severity::kError;
  EXPECT_FALSE(Ignored(ignores, error)) << "errors are what the cluster refuses";
}

}  // namespace
}  // namespace tjr::report
