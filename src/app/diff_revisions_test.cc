// The diff use case through its library entry point, on two folders (the
// Git side runs through the same code and is tested end to end in
// cli/diff_command_test.cc).
#include "app/diff_revisions.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>


#include "testkit/temp_dir.h"

namespace tjr::app {
namespace {
namespace fs = std::filesystem;


class Recorder final : public DiffSink {
 public:
  void Problem(const Diagnostic& problem) override { problems.push_back(problem.ToString()); }
  void Note(std::string_view text) override { notes.emplace_back(text); }
  std::vector<std::string> problems;
  std::vector<std::string> notes;
};

class DiffRevisionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(testkit::SampleRepo(), root_ / "old", fs::copy_options::recursive);
    fs::copy(testkit::SampleRepo(), root_ / "new", fs::copy_options::recursive);
  }

  DiffRequest Request() const {
    DiffRequest request;
    request.base = (root_ / "old").string();
    request.head = (root_ / "new").string();
    request.threads = 1;
    return request;
  }

  testkit::TempDir temp_{"app-diff"};
  const fs::path root_ = temp_.root();
};

TEST_F(DiffRevisionsTest, TheSameFoldersDifferInNothing) {
  Findings findings;
  Recorder sink;
  DiffOutcome outcome = DiffRevisions(Request(), findings, sink);
  ASSERT_TRUE(outcome.compared) << (sink.problems.empty() ? "" : sink.problems[0]);
  EXPECT_FALSE(outcome.result.HasDifferences()) << outcome.result.CountsText();
  EXPECT_EQ(outcome.base_label, (root_ / "old").string());
  EXPECT_FALSE(findings.has_errors());
}

// The TrainJob is suspended at both sides: the v2.1 webhook refuses a
// change to a running TrainJob's podTemplateOverrides (that refusal is
// RefusedUpdatesAreNoDifferences' subject), not a suspended one's.
void SuspendAndRenameServiceAccount(const fs::path& job, bool rename) {
  std::ifstream in(job);
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  ASSERT_NE(yaml.find("ml-training-sa"), std::string::npos);
  if (rename) yaml.replace(yaml.find("ml-training-sa"), 14, "renamed-sa");
  yaml.replace(yaml.find("spec:\n"), 6, "spec:\n  suspend: true\n");
  std::ofstream(job) << yaml;
}

TEST_F(DiffRevisionsTest, AChangedServiceAccountIsAChangedJobSet) {
  SuspendAndRenameServiceAccount(root_ / "old/trainjobs/custom-sa-node-selector.yaml", false);
  SuspendAndRenameServiceAccount(root_ / "new/trainjobs/custom-sa-node-selector.yaml", true);
  Findings findings;
  Recorder sink;
  DiffOutcome outcome = DiffRevisions(Request(), findings, sink);
  ASSERT_TRUE(outcome.compared);
  EXPECT_TRUE(outcome.result.HasDifferences()) << outcome.result.CountsText();
  EXPECT_TRUE(outcome.result.Refused(diff::Side::kHead).empty());
}

// A running TrainJob's podTemplateOverrides changed: the webhook refuses the
// update, so HEAD renders nothing for it. That is check's finding, shown
// beside the diff, not a difference of rendered objects.
TEST_F(DiffRevisionsTest, RefusedUpdatesAreNoDifferences) {
  const fs::path job = root_ / "new/trainjobs/custom-sa-node-selector.yaml";
  std::ifstream in(job);
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  yaml.replace(yaml.find("ml-training-sa"), 14, "renamed-sa");
  std::ofstream(job) << yaml;
  Findings findings;
  Recorder sink;
  DiffOutcome outcome = DiffRevisions(Request(), findings, sink);
  ASSERT_TRUE(outcome.compared);
  EXPECT_FALSE(outcome.result.HasDifferences()) << outcome.result.CountsText();
  EXPECT_FALSE(outcome.result.NothingCompared());
  EXPECT_EQ(outcome.result.Refused(diff::Side::kHead),
            std::vector<std::string>{"ml-team/pytorch-distributed-custom"});
}

TEST_F(DiffRevisionsTest, MixingAFolderAndARevisionIsAProblem) {
  DiffRequest request = Request();
  request.base = "HEAD";
  Findings findings;
  Recorder sink;
  DiffOutcome outcome = DiffRevisions(request, findings, sink);
  EXPECT_FALSE(outcome.compared);
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_EQ(sink.problems[0], "error: BASE and HEAD must both be folders or both be Git revisions");
}

TEST_F(DiffRevisionsTest, AnUnsupportedTargetIsAProblem) {
  DiffRequest request = Request();
  request.target = "v1.0";
  Findings findings;
  Recorder sink;
  DiffOutcome outcome = DiffRevisions(request, findings, sink);
  EXPECT_FALSE(outcome.compared);
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_EQ(sink.problems[0].rfind("error: unsupported target 'v1.0' (supported: ", 0), 0u) << sink.problems[0];
}

}  // namespace
}  // namespace tjr::app
