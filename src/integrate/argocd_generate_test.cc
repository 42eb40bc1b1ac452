// The Argo CD plugin's generate through its entry point, run in an
// application folder as Argo CD runs it (the working directory).
#include "integrate/argocd_generate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "testkit/fixtures.h"
#include "testkit/temp_dir.h"

namespace tjr::integrate {
namespace {

class Notices final : public ArgocdSink {
 public:
  void Notice(const Diagnostic& notice) override { seen.push_back(notice.ToString()); }
  std::vector<std::string> seen;
};

class ArgocdGenerateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = std::filesystem::current_path();
    repo_.Write("runtimes/plain.yaml", testkit::kPlainRuntime);
    repo_.Write("apps/train/job.yaml", testkit::kPlainTrainJob);
    repo_.Write("apps/train/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n");
    std::filesystem::current_path(repo_.Path("apps/train"));
    request_.settings.source_path = "apps/train";
  }
  void TearDown() override { std::filesystem::current_path(previous_); }

  ArgocdOutcome Run() { return ArgocdGenerate(request_, findings_, notices_); }

  std::filesystem::path previous_;
  testkit::TempDir repo_{"argocd"};
  ArgocdRequest request_;
  app::Findings findings_;
  Notices notices_;
};

TEST_F(ArgocdGenerateTest, RuntimesOutsideTheFolderComeThroughRuntimePaths) {
  ArgocdOutcome outcome = Run();
  ASSERT_FALSE(outcome.refused);
  EXPECT_TRUE(findings_.has_errors());  // the runtime is not in the folder
  EXPECT_TRUE(outcome.manifests.empty());

  app::Findings findings;
  request_.settings.runtime_paths = {"runtimes"};
  outcome = ArgocdGenerate(request_, findings, notices_);
  ASSERT_FALSE(outcome.refused);
  EXPECT_FALSE(findings.has_errors());
  // validate: the application's objects as written, the runtime never.
  EXPECT_EQ(outcome.objects, 2u);
  EXPECT_NE(outcome.manifests.find("kind: TrainJob"), std::string::npos);
  EXPECT_EQ(outcome.manifests.find("kind: ClusterTrainingRuntime"), std::string::npos);
  EXPECT_EQ(outcome.target, "trainer-v2.3");
}

TEST_F(ArgocdGenerateTest, RenderReplacesTheTrainJob) {
  request_.settings.runtime_paths = {"runtimes"};
  request_.settings.mode = ArgoMode::kRender;
  ArgocdOutcome outcome = Run();
  ASSERT_FALSE(outcome.refused);
  EXPECT_FALSE(findings_.has_errors());
  EXPECT_NE(outcome.manifests.find("kind: JobSet"), std::string::npos) << outcome.manifests;
  EXPECT_EQ(outcome.manifests.find("kind: TrainJob"), std::string::npos);
}

TEST_F(ArgocdGenerateTest, ATrainJobNamedByGenerateNameIsValidatedAsWrittenButNeverRenderedForApply) {
  // The loader checks it under a placeholder name (source::Manifest::
  // generate_name); that name must not reach the cluster.
  repo_.Write("apps/train/job.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n"
                                     "  generateName: sweep-\nspec:\n  runtimeRef:\n    name: plain\n");
  request_.settings.runtime_paths = {"runtimes"};
  ArgocdOutcome validate = Run();
  ASSERT_FALSE(validate.refused);
  EXPECT_FALSE(findings_.has_errors());
  EXPECT_NE(validate.manifests.find("  generateName: sweep-\n"), std::string::npos) << validate.manifests;
  EXPECT_EQ(validate.manifests.find("xxxxx"), std::string::npos) << validate.manifests;

  app::Findings findings;
  request_.settings.mode = ArgoMode::kRender;
  ArgocdOutcome render = ArgocdGenerate(request_, findings, notices_);
  EXPECT_TRUE(findings.has_errors());
  EXPECT_EQ(render.manifests.find("xxxxx"), std::string::npos) << render.manifests;
  EXPECT_EQ(render.manifests.find("kind: JobSet"), std::string::npos) << render.manifests;
}

TEST_F(ArgocdGenerateTest, RefusesRuntimePathsOutsideTheRepository) {
  request_.settings.runtime_paths = {"../elsewhere"};
  ArgocdOutcome outcome = Run();
  ASSERT_TRUE(outcome.refused);
  EXPECT_NE(outcome.refused->message.find("runtime-paths entry '../elsewhere'"), std::string::npos);
}

// A repository is hostile input: nothing outside it is read, whether a
// runtime-paths entry leads out through a link or ARGOCD_APP_SOURCE_PATH
// leads to a root that is not the copy's.
TEST_F(ArgocdGenerateTest, ReadsNothingOutsideTheRepository) {
  testkit::TempDir outside{"argocd-outside"};
  outside.Write("runtime.yaml", testkit::kPlainRuntime);
  repo_.Link("linked", outside.root());
  request_.settings.runtime_paths = {"linked"};
  ArgocdOutcome outcome = Run();
  ASSERT_TRUE(outcome.refused);
  EXPECT_EQ(outcome.refused->message.rfind("runtime-paths entry is a symbolic link to ", 0), 0u)
      << outcome.refused->message;
  EXPECT_EQ(*outcome.refused->location.file, "linked");

  request_.settings.runtime_paths = {"runtimes"};
  for (const char* source_path : {"elsewhere/train", "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/train", "../train",
                                  "/apps/train"}) {
    request_.settings.source_path = source_path;
    outcome = Run();
    ASSERT_TRUE(outcome.refused) << source_path;
    EXPECT_EQ(*outcome.refused->location.file, "ARGOCD_APP_SOURCE_PATH") << source_path;
  }
}

TEST_F(ArgocdGenerateTest, NothingToPrintIsAnErrorUnlessAllowed) {
  std::filesystem::remove(repo_.Path("apps/train/job.yaml"));
  std::filesystem::remove(repo_.Path("apps/train/cm.yaml"));
  ArgocdOutcome outcome = Run();
  ASSERT_TRUE(outcome.empty);
  EXPECT_NE(outcome.empty->message.find("would print zero objects"), std::string::npos);
  request_.settings.allow_empty = true;
  outcome = Run();
  EXPECT_FALSE(outcome.empty);
  EXPECT_EQ(outcome.objects, 0u);
}

TEST_F(ArgocdGenerateTest, AChartInTheFolderIsANotice) {
  repo_.Write("apps/train/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n");
  request_.settings.runtime_paths = {"runtimes"};
  Run();
  ASSERT_EQ(notices_.seen.size(), 1u);
  EXPECT_EQ(notices_.seen[0].rfind("warning: the application folder holds Chart.yaml: tjrender reads", 0), 0u);
}

// Findings name files by their path in the repository (the cmp-server's
// copy is a new temporary folder each run), runtime-paths' too; a rendered
// tree inside the folder (render --out's index) is left out, with a notice.
TEST_F(ArgocdGenerateTest, RepositoryPathsAndNoRenderedTree) {
  repo_.Write("runtimes/typo.yaml",
              "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: typo}\n"
              "spec:\n  template: {spec: {}}\n  mistyped: 1\n");
  repo_.Write("apps/train/rendered/.tjrender-index", "job.yaml\n");
  repo_.Write("apps/train/rendered/job.yaml",
              "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: job\n  ownerReferences:\n"
              "  - {apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, name: job}\n");
  request_.settings.runtime_paths = {"runtimes"};
  request_.settings.source_path = "apps/train/";  // as an Application may write it
  ArgocdOutcome outcome = Run();
  ASSERT_FALSE(outcome.refused);
  EXPECT_EQ(outcome.objects, 2u) << outcome.manifests;
  EXPECT_EQ(outcome.manifests.find("JobSet"), std::string::npos);
  std::vector<std::string> files;
  for (const report::Finding& f : findings_.findings()) files.push_back(*f.diagnostic.location.file);
  EXPECT_EQ(files, std::vector<std::string>{"runtimes/typo.yaml"});
  ASSERT_EQ(notices_.seen.size(), 1u);
  EXPECT_EQ(notices_.seen[0].rfind("apps/train/rendered: warning: left out: a tree `tjrender render --out` wrote", 0), 0u)
      << notices_.seen[0];
}

}  // namespace
}  // namespace tjr::integrate
