#include "base/diagnostic.h"

#include <gtest/gtest.h>

namespace tjr {
namespace {

TEST(DiagnosticTest, FormatsLocationSeverityPathAndMessage) {
  Location at{InternSourceName("runtime.yaml"), 12, 7};
  Diagnostic d = MakeError(at, "spec.replicas", "must be positive");
  EXPECT_EQ(d.ToString(), "runtime.yaml:12:7: error: spec.replicas: must be positive");
}

TEST(DiagnosticTest, PrintsThePathOnceWhenTheMessageStartsWithIt) {
  Location at{InternSourceName("job.yaml"), 3, 5};
  Diagnostic d = MakeError(at, "spec.trainer.numProcPerNode",
                           "spec.trainer.numProcPerNode: Invalid value: \"x\": must have an int value");
  EXPECT_EQ(d.ToString(),
            "job.yaml:3:5: error: spec.trainer.numProcPerNode: Invalid value: \"x\": must have an "
            "int value");
  d.field_path = "spec.trainer";
  EXPECT_EQ(d.ToString().substr(0, 36), "job.yaml:3:5: error: spec.trainer: s");
}

TEST(DiagnosticTest, LeavesOutUnknownParts) {
  Diagnostic d = MakeError({}, "", "no input");
  EXPECT_EQ(d.ToString(), "error: no input");
  d.severity = Severity::kWarning;
  d.location.file = InternSourceName("a.yaml");
  EXPECT_EQ(d.ToString(), "a.yaml: warning: no input");
}

TEST(DiagnosticTest, AbbreviatesVeryLongFieldPaths) {
  std::string deep;
  for (int i = 0; i < 1000; ++i) deep += "[0]";
  Diagnostic d = MakeError({}, "a" + deep, "too deep");
  std::string text = d.ToString();
  EXPECT_LT(text.size(), 220u);
  EXPECT_EQ(text.substr(0, 11), "error: a[0]");
  EXPECT_NE(text.find("...[0]"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 13), "[0]: too deep");
}

TEST(DiagnosticTest, InterningReturnsTheSamePointer) {
  EXPECT_EQ(InternSourceName("x/y.yaml"), InternSourceName(std::string("x/y.yaml")));
  EXPECT_NE(InternSourceName("x/y.yaml"), InternSourceName("x/z.yaml"));
}

TEST(ResultTest, HoldsValueOrError) {
  Result<int> good = 3;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 3);
  Result<int> bad = MakeError({}, "a.b", "broken");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "broken");
}

}  // namespace
}  // namespace tjr

namespace tjr {
namespace {

Diagnostic Finding(std::string message, Severity severity = Severity::kError) {
  Diagnostic d = MakeError({}, "", std::move(message));
  d.severity = severity;
  return d;
}

TEST(RuleIdTest, ExplicitRuleWins) {
  Diagnostic d = Finding("[volume-two-sources] x");
  d.rule = "mine";
  EXPECT_EQ(RuleId(d), "mine");
}

TEST(RuleIdTest, WarningsAndNotesCarryTheirRule) {
  Diagnostic d = MakeWarning({}, "override-container-unknown", "container \"x\"");
  EXPECT_EQ(d.severity, Severity::kWarning);
  EXPECT_EQ(d.message, "[override-container-unknown] container \"x\"");
  EXPECT_EQ(RuleId(d), "override-container-unknown");
  EXPECT_EQ(MessageWithoutRule(d), "container \"x\"");
  Diagnostic note = MakeNote({}, "secret-not-rendered", "Secret s is not rendered");
  EXPECT_EQ(note.severity, Severity::kNote);
  EXPECT_EQ(RuleId(note), "secret-not-rendered");
  // The id is not read back from the text: a bracket that is not the
  // finding's rule stays in the message.
  EXPECT_EQ(RuleId(Finding("[volume-two-sources] x", Severity::kWarning)), "upstream/warning");
  EXPECT_EQ(MessageWithoutRule(Finding("[not an id] x")), "[not an id] x");
}

TEST(RuleIdTest, TheMessageIsNeverRead) {
  // Upstream errors carry their type's rule from where they are made
  // (validate's field errors, the runtime lookup, Flyte's metadata checks);
  // an error without one is "upstream/error", whatever its text says.
  EXPECT_EQ(RuleId(Finding("spec.RuntimeRef: Invalid value: \"x\": not found")), "upstream/error");
  EXPECT_EQ(RuleId(Finding("[spec.a: Forbidden: no, spec.b: Invalid value: 1: bad]")), "upstream/error");
  EXPECT_EQ(RuleId(Finding("spec.x: Required value", Severity::kWarning)), "upstream/warning");
}

TEST(RuleIdTest, InputAndNotes) {
  EXPECT_EQ(RuleId(AsInputError(Finding("cannot read"))), "input");
  EXPECT_EQ(RuleId(Finding("fyi", Severity::kNote)), "note");
}

}  // namespace
}  // namespace tjr
