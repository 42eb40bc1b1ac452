// `check --since BASE`: BASE's TrainJobs as the cluster stores them.
#include "app/previous_state.h"

#include <gtest/gtest.h>

#include "doc/path.h"
#include "testkit/fixtures.h"
#include "testkit/git_repo.h"

namespace tjr::app {
namespace {

constexpr char kOtherTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: other, namespace: team}
spec:
  runtimeRef: {name: plain, kind: TrainingRuntime}
)";

// A repository whose BASE (HEAD~1) has TrainJobs team/job and team/other;
// HEAD changes team/job and adds team/new.
class PreviousTrainJobsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testkit::HaveGit()) GTEST_SKIP() << "git is not installed";
    repo_.Write("jobs/job.yaml", testkit::kPlainTrainJob);
    repo_.Write("jobs/other.yaml", kOtherTrainJob);
    ASSERT_EQ(repo_.Commit("base"), 0);
    repo_.Write("jobs/job.yaml", std::string(testkit::kPlainTrainJob) + "  suspend: true\n");
    repo_.Write("jobs/new.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                                 "metadata: {name: new, namespace: team}\nspec: {runtimeRef: {name: plain}}\n");
    ASSERT_EQ(repo_.Commit("head"), 0);
  }

  std::unique_ptr<RenderSource> Open(const std::string& since) {
    SourceRequest request;
    request.repo = repo_.root();
    request.rev = since.empty() ? "" : "HEAD";
    request.since = since;
    request.paths = {"jobs"};
    Result<std::unique_ptr<RenderSource>> source = OpenRenderSource(request);
    EXPECT_TRUE(source.ok()) << source.error().ToString();
    return source.ok() ? std::move(*source) : nullptr;
  }

  testkit::GitRepo repo_;
};

TEST_F(PreviousTrainJobsTest, NothingWithoutABaseRevision) {
  std::unique_ptr<RenderSource> source = Open("");
  ASSERT_NE(source, nullptr);
  EXPECT_TRUE(PreviousTrainJobs(*source, nullptr, nullptr, {}, {}, nullptr, "trainer-v2.3").empty());
}

TEST_F(PreviousTrainJobsTest, BaseTrainJobsWithTheTargetsCrdDefaults) {
  std::unique_ptr<RenderSource> source = Open("HEAD~1");
  ASSERT_NE(source, nullptr);
  std::map<std::string, doc::Node> stored =
      PreviousTrainJobs(*source, nullptr, nullptr, {}, {}, nullptr, "trainer-v2.3");
  ASSERT_EQ(stored.size(), 2u);  // team/new is a create
  const doc::Node& job = stored.at("team/job");
  // BASE's content (not suspended), with the CRD defaults the API server applied.
  EXPECT_EQ(doc::FindPath(job, {"spec", "suspend"})->bool_value(), false);
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "runtimeRef", "kind"}), "ClusterTrainingRuntime");
  EXPECT_EQ(doc::StringAtPath(stored.at("team/other"), {"spec", "runtimeRef", "kind"}), "TrainingRuntime");
}

TEST_F(PreviousTrainJobsTest, TheAffectedSetLimitsWhatIsRead) {
  std::unique_ptr<RenderSource> source = Open("HEAD~1");
  ASSERT_NE(source, nullptr);
  const std::vector<std::string> changed = {"jobs/job.yaml", "jobs/new.yaml"};
  const std::set<std::string> affected = {"team/job", "team/new"};
  std::map<std::string, doc::Node> stored =
      PreviousTrainJobs(*source, &changed, &affected, {}, {}, nullptr, "trainer-v2.3");
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored.count("team/job"), 1u);
}

}  // namespace
}  // namespace tjr::app
