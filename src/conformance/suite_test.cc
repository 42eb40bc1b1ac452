#include "conformance/suite.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testkit/temp_dir.h"

namespace tjr::conformance {
namespace {

namespace fs = std::filesystem;

// A real case of the repository's suite, copied so that it can be broken.
const char kCase[] = "merge/pto-affinity-kinds-merge-independently";

fs::path SourceCase() { return testkit::SourcePath("conformance/") + kCase; }

class Recorder final : public SuiteSink {
 public:
  void CaseDone(const fs::path& dir, const CaseReport& report) override {
    dirs.push_back(dir.filename().string());
    reports.push_back(report);
  }
  std::vector<std::string> dirs;
  std::vector<CaseReport> reports;
};

class SuiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"merge/a", "merge/b"}) {
      fs::create_directories(tree_.Path(name));
      fs::copy(SourceCase(), tree_.Path(name), fs::copy_options::recursive);
    }
    // b expects a Pod the merge does not make.
    tree_.Write("merge/b/expected.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: other\n");
  }

  testkit::TempDir tree_;
};

TEST_F(SuiteTest, RunsEveryCaseBelowTheRootsInOrderAndCountsThem) {
  Recorder sink;
  Result<SuiteOutcome> outcome = RunSuite({{tree_.root()}, {}}, sink);
  ASSERT_TRUE(outcome.ok()) << outcome.error().ToString();
  EXPECT_EQ(outcome->passed, 1u);
  EXPECT_EQ(outcome->failed, 1u);
  EXPECT_EQ(outcome->updated + outcome->errors, 0u);
  EXPECT_EQ(sink.dirs, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(sink.reports[1].outcome, Outcome::kFailed);
}

TEST_F(SuiteTest, ARootWithoutCasesRunsNothing) {
  tree_.MakeDir("empty");
  Recorder sink;
  EXPECT_FALSE(RunSuite({{tree_ / "empty"}, {}}, sink).ok());
  EXPECT_TRUE(sink.reports.empty());
}

TEST(SuiteReports, AFailedCaseIsAJunitFailureAndAFindingAboutItsCaseFile) {
  CaseReport report;
  report.name = "merge/b";
  report.outcome = Outcome::kFailed;
  report.summary = "output differs";
  report.details.push_back(MakeError(Location{}, "", "- name: other"));
  const report::JunitCase junit = AsJunitCase(report);
  EXPECT_EQ(junit.classname, "conformance.merge");
  EXPECT_EQ(junit.status, report::JunitCase::Status::kFailed);
  EXPECT_EQ(junit.message, "output differs");
  EXPECT_EQ(junit.details, "error: - name: other\n");

  const Diagnostic finding = AsFinding("cases/merge/b", report);
  EXPECT_EQ(finding.rule, "conformance/failed");
  // One line of text, its line break escaped as every message's is.
  EXPECT_EQ(finding.ToString(), "cases/merge/b/case.yaml: error: output differs\\nerror: - name: other");
  EXPECT_EQ(finding.message, "output differs\nerror: - name: other");

  report.outcome = Outcome::kUpdated;
  EXPECT_EQ(AsJunitCase(report).status, report::JunitCase::Status::kSkipped);
  report.outcome = Outcome::kError;
  EXPECT_EQ(AsFinding("c", report).rule, "conformance/error");
}

}  // namespace
}  // namespace tjr::conformance
