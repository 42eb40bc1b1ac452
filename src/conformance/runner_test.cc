#include "conformance/runner.h"

#include <gtest/gtest.h>

#include "conformance/target.h"
#include "testkit/temp_dir.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::conformance {
namespace {

constexpr std::string_view kCaseYaml = "description: d\nsource: s\ntarget: fake\n";
constexpr std::string_view kPodA = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n";
constexpr std::string_view kPodB = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: b\n";

// What the fake target returns, and whether it ran.
TargetOutput fake_output;
bool fake_refuses = false;
bool fake_ran = false;

Result<TargetOutput> FakeTarget(const std::vector<InputFile>&, const std::vector<std::string>&) {
  fake_ran = true;
  if (fake_refuses) return AsInputError(MakeError({}, "command", "unknown option"));
  return fake_output;
}

const Target kFake{"fake", "returns fake_output", FakeTarget};

doc::Node Yaml(std::string_view text) {
  auto documents = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(documents.ok() && documents->size() == 1);
  return documents.ok() && !documents->empty() ? documents->front() : doc::Node();
}

Diagnostic PatchError() {
  return MakeError(Location{InternSourceName("input/patch.yaml"), 2, 3}, "spec",
                   "refused for a reason");
}

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_output = {};
    fake_refuses = false;
    fake_ran = false;
    tree_.Write("merge/c/case.yaml", kCaseYaml);
    tree_.MakeDir("merge/c/input");
  }

  CaseReport Run(bool update = false) {
    auto loaded = LoadCase(tree_ / "merge/c");
    EXPECT_TRUE(loaded.ok()) << loaded.error().ToString();
    RunOptions options;
    options.update = update;
    return RunLoadedCase(*loaded, kFake, options);
  }

  testkit::TempDir tree_;
};

TEST_F(RunnerTest, EqualObjectsPass) {
  tree_.Write("merge/c/expected.yaml", std::string(kPodB) + "---\n" + std::string(kPodA));
  fake_output.objects = {Yaml(kPodA), Yaml(kPodB)};
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kPassed) << report.summary;
  EXPECT_EQ(report.name, "merge/c");
  EXPECT_TRUE(report.details.empty());
}

TEST_F(RunnerTest, DifferentObjectsFailWithADiffNamingExpectedYaml) {
  tree_.Write("merge/c/expected.yaml", kPodA);
  fake_output.objects = {Yaml(std::string(kPodA) + "spec:\n  hostname: h\n")};
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kFailed);
  EXPECT_EQ(report.summary, "the output differs from expected.yaml");
  ASSERT_EQ(report.details.size(), 1u);
  EXPECT_EQ(*report.details[0].location.file, (tree_ / "merge/c/expected.yaml"));
  EXPECT_NE(report.details[0].message.find("+spec:\n+  hostname: h\n"), std::string::npos)
      << report.details[0].message;
}

TEST_F(RunnerTest, ErrorsInsteadOfObjectsFailWithTheDiagnosticsFromTheWorkingDirectory) {
  tree_.Write("merge/c/expected.yaml", kPodA);
  fake_output.diagnostics = {PatchError()};
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kFailed);
  ASSERT_EQ(report.details.size(), 1u);
  EXPECT_EQ(*report.details[0].location.file, (tree_ / "merge/c/input/patch.yaml"));
}

TEST_F(RunnerTest, WarningsDoNotFailAnObjectsCase) {
  tree_.Write("merge/c/expected.yaml", kPodA);
  fake_output.objects = {Yaml(kPodA)};
  Diagnostic warning = PatchError();
  warning.severity = Severity::kWarning;
  fake_output.diagnostics = {warning};
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
}

TEST_F(RunnerTest, ExpectedErrorsMustEachBeReported) {
  tree_.Write("merge/c/expected-errors.txt",
              "input/patch.yaml:2:3: error: spec: refused\nfor a reason\n");
  fake_output.diagnostics = {PatchError()};
  EXPECT_EQ(Run().outcome, Outcome::kPassed);

  tree_.Write("merge/c/expected-errors.txt", "for a reason\nnot this one\n");
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kFailed);
  EXPECT_EQ(report.summary, "1 expected error(s) not reported");
  ASSERT_EQ(report.details.size(), 2u);
  EXPECT_NE(report.details[0].message.find("not reported:\n  not this one\n"), std::string::npos);

  fake_output.diagnostics.clear();
  fake_output.objects = {Yaml(kPodA)};
  CaseReport succeeded = Run();
  EXPECT_EQ(succeeded.outcome, Outcome::kFailed);
  EXPECT_EQ(succeeded.summary, "expected errors, but the target reported none");
}

TEST_F(RunnerTest, EveryReportedErrorMustBeListed) {
  Diagnostic second = PatchError();
  second.message = "a second, unexpected error";
  Diagnostic warning = PatchError();
  warning.severity = Severity::kWarning;
  warning.message = "a warning need not be listed";
  fake_output.diagnostics = {PatchError(), second, warning};
  tree_.Write("merge/c/expected-errors.txt", "spec: refused\n");
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kFailed);
  EXPECT_EQ(report.summary, "1 reported error(s) not listed");
  ASSERT_FALSE(report.details.empty());
  EXPECT_NE(report.details[0].message.find("reported but not listed:\n  input/patch.yaml:2:3: error: spec: a second, "
                                           "unexpected error"),
            std::string::npos)
      << report.details[0].message;
  tree_.Write("merge/c/expected-errors.txt", "spec: refused\nunexpected error\n");
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
}

TEST_F(RunnerTest, EmptyExpectedObjectsMeansNothingMayRender) {
  tree_.Write("merge/c/expected.yaml", "");
  EXPECT_EQ(Run().outcome, Outcome::kPassed);  // the fake target produces nothing
  fake_output.objects = {Yaml(kPodA)};
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kFailed);
  EXPECT_EQ(report.summary, "the output differs from expected.yaml");
}

TEST_F(RunnerTest, ExpectedErrorsMeanNothingMayRender) {
  tree_.Write("merge/c/expected-errors.txt", "spec: refused\n");
  fake_output.diagnostics = {PatchError()};
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
  fake_output.objects = {Yaml(kPodA)};  // another object's, beside the error
  CaseReport report = Run();
  EXPECT_EQ(report.outcome, Outcome::kFailed);
  EXPECT_EQ(report.summary, "1 object(s) rendered beside the errors");
  // A case that lists warnings only says nothing about the objects.
  Diagnostic warning = PatchError();
  warning.severity = Severity::kWarning;
  fake_output.diagnostics = {warning};
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
}

TEST_F(RunnerTest, InputParseErrorsAreTheOutputAndTheTargetDoesNotRun) {
  tree_.Write("merge/c/input/object.yaml", "a: [\n");
  tree_.Write("merge/c/expected-errors.txt", "input/object.yaml:");
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
  EXPECT_FALSE(fake_ran);
}

TEST_F(RunnerTest, CasesThatCannotRunAreErrors) {
  EXPECT_EQ(Run().outcome, Outcome::kError);  // no expectation

  tree_.Write("merge/c/expected.yaml", kPodA);
  fake_refuses = true;
  CaseReport refused = Run();
  EXPECT_EQ(refused.outcome, Outcome::kError);
  ASSERT_EQ(refused.details.size(), 1u);
  EXPECT_EQ(refused.details[0].message, "unknown option");
}

TEST_F(RunnerTest, UpdateWritesSortedObjectsOnlyWhenTheyChange) {
  fake_output.objects = {Yaml(kPodB), Yaml(kPodA)};
  CaseReport first = Run(/*update=*/true);
  EXPECT_EQ(first.outcome, Outcome::kUpdated);
  EXPECT_EQ(first.summary, "wrote expected.yaml");
  EXPECT_EQ(tree_.Read("merge/c/expected.yaml"),
            yaml::WriteStream({Yaml(kPodA), Yaml(kPodB)}));
  EXPECT_EQ(Run(/*update=*/true).outcome, Outcome::kPassed);
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
}

TEST_F(RunnerTest, UpdateSwitchesToExpectedErrorsAndRemovesTheStaleFile) {
  tree_.Write("merge/c/expected.yaml", kPodA);
  fake_output.diagnostics = {PatchError()};
  CaseReport report = Run(/*update=*/true);
  EXPECT_EQ(report.outcome, Outcome::kUpdated);
  EXPECT_FALSE(tree_.Exists("merge/c/expected.yaml"));
  EXPECT_EQ(tree_.Read("merge/c/expected-errors.txt"),
            "input/patch.yaml:2:3: error: spec: refused for a reason\n");
  EXPECT_EQ(Run().outcome, Outcome::kPassed);
}

TEST(RunCaseTest, UnknownTargetIsAnError) {
  testkit::TempDir tree;
  tree.Write("c/case.yaml", "description: d\nsource: s\ntarget: nope\n");
  tree.MakeDir("c/input");
  CaseReport report = RunCase(tree / "c", {});
  EXPECT_EQ(report.outcome, Outcome::kError);
  ASSERT_EQ(report.details.size(), 1u);
  // Every registered target is listed, in table order.
  std::string known;
  for (const Target& target : Targets()) known += (known.empty() ? "" : ", ") + std::string(target.name);
  EXPECT_NE(report.details[0].message.find("unknown target 'nope' (known: " + known + ")"),
            std::string::npos);
}

TEST(RunCaseTest, UnloadableCaseIsAnError) {
  testkit::TempDir tree;
  CaseReport report = RunCase(tree / "absent", {});
  EXPECT_EQ(report.outcome, Outcome::kError);
  EXPECT_EQ(report.name, (tree / "absent"));
}

TEST(RunCaseTest, MergeCaseEndToEnd) {
  // The expectation is kubectl v1.32.4's output for this object and patch.
  testkit::TempDir tree;
  tree.Write("merge/env/case.yaml", "description: d\nsource: s\ntarget: merge\n");
  tree.Write("merge/env/input/object.yaml",
             "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: t\ntemplate:\n  spec:\n"
             "    containers:\n    - name: c\n      image: i\n      env:\n"
             "      - {name: A, value: a}\n      - {name: B, value: b}\n");
  tree.Write("merge/env/input/patch.yaml",
             "template:\n  spec:\n    containers:\n    - name: c\n      env:\n"
             "      - {name: C, value: c}\n");
  tree.Write("merge/env/expected.yaml",
             "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: t\ntemplate:\n  spec:\n"
             "    containers:\n    - env:\n      - name: C\n        value: c\n"
             "      - name: A\n        value: a\n      - name: B\n        value: b\n"
             "      image: i\n      name: c\n");
  CaseReport report = RunCase(tree / "merge/env", {});
  EXPECT_EQ(report.outcome, Outcome::kPassed)
      << report.summary << (report.details.empty() ? "" : report.details[0].ToString());
}

}  // namespace
}  // namespace tjr::conformance
