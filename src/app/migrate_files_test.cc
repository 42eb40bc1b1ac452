// The migrate use case through its library entry point: the rewrite, what
// reaches the sink, the comparison and the refusals, on files in memory and
// (for --write) on disk.
#include "app/migrate_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "source/memory_tree.h"
#include "testkit/fixtures.h"
#include "testkit/temp_dir.h"

namespace tjr::app {
namespace {
namespace fs = std::filesystem;

// The runtime's node container with a cpu limit.
const std::string kResourcesRuntime = std::string(testkit::kPlainRuntime) +
                                      "                  resources:\n"
                                      "                    limits:\n"
                                      "                      cpu: \"4\"\n";

// spec.labels migrate to a RuntimePatch and render as before; resourcesPerNode
// does not migrate, but Trainer v2.3 ignores it when the runtime has no
// mlPolicy (v2.1 replaced the container's resources with it): the upgrade
// renders differently.
const char kTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: team
spec:
  runtimeRef:
    name: plain
  labels:
    team: ml
  trainer:
    resourcesPerNode:
      limits:
        memory: 8Gi
)";

const char kMigratedTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: team
spec:
  runtimeRef:
    name: plain
  runtimePatches:
  - manager: trainer.kubeflow.org/kubeflow-sdk
    trainingRuntimeSpec:
      template:
        metadata:
          labels:
            team: ml
  trainer:
    resourcesPerNode:
      limits:
        memory: 8Gi
)";

class Recorder final : public MigrateSink {
 public:
  void Problem(const Diagnostic& problem) override { problems.push_back(problem.ToString()); }
  void Migrated(const MigratedText& file) override { files.push_back(file); }
  void Compared(const migrate::TrainJobComparison& trainjob) override { compared.push_back(trainjob.train_job); }

  std::vector<std::string> problems;
  std::vector<MigratedText> files;
  std::vector<std::string> compared;
};

MigrateRequest InMemory(const source::MemoryTree& tree) {
  MigrateRequest request;
  request.tree = &tree;
  request.paths = {"repo"};
  request.compare.threads = 1;
  return request;
}

TEST(MigrateFilesTest, HandsOverEachChangedFileAndComparesTheRenders) {
  source::MemoryTree tree({{"repo/runtime.yaml", kResourcesRuntime}, {"repo/job.yaml", kTrainJob}});
  Recorder sink;
  const MigrateOutcome outcome = MigrateFiles(InMemory(tree), sink);
  EXPECT_FALSE(outcome.refused);
  EXPECT_FALSE(outcome.input_errors);
  ASSERT_EQ(sink.files.size(), 1u);  // the runtime has nothing to migrate
  EXPECT_EQ(sink.files[0].name, "repo/job.yaml");
  EXPECT_EQ(sink.files[0].before, kTrainJob);
  EXPECT_EQ(sink.files[0].after, kMigratedTrainJob);
  EXPECT_FALSE(sink.files[0].written);
  EXPECT_TRUE(outcome.compared);
  // The memory limit goes, the runtime's cpu limit stays.
  ASSERT_EQ(sink.compared, std::vector<std::string>{"team/job"});
  EXPECT_EQ(outcome.differences, 2u);
  EXPECT_TRUE(sink.problems.empty()) << sink.problems[0];
}

TEST(MigrateFilesTest, ThePreviewShapeIsWrittenButNotRendered) {
  source::MemoryTree tree({{"repo/runtime.yaml", testkit::kPlainRuntime}, {"repo/job.yaml", kTrainJob}});
  MigrateRequest request = InMemory(tree);
  request.rewrite.shape = migrate::Shape::kTemplateOverridesPreview;
  Recorder sink;
  const MigrateOutcome outcome = MigrateFiles(request, sink);
  EXPECT_EQ(sink.files.size(), 1u);
  EXPECT_FALSE(outcome.compared);
  EXPECT_TRUE(sink.compared.empty());
}

TEST(MigrateFilesTest, ARepositoryPinnedToAnOldReleaseGetsANote) {
  source::MemoryTree tree({{"repo/.tjrender.yaml", "target: trainer-v2.1\n"},
                           {"repo/runtime.yaml", testkit::kPlainRuntime},
                           {"repo/job.yaml", kTrainJob}});
  Recorder sink;
  MigrateFiles(InMemory(tree), sink);
  // The configuration is read, not migrated as a manifest.
  ASSERT_EQ(sink.files.size(), 1u);
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_NE(sink.problems[0].find("repo/.tjrender.yaml"), std::string::npos) << sink.problems[0];
  EXPECT_NE(sink.problems[0].find("target: trainer-v2.1 pins the repository"), std::string::npos);
}

TEST(MigrateFilesTest, FieldsWithNoPlaceAreInputErrorsAndTheTrainJobIsNotCompared) {
  // runtimePatches' ContainerPatch has no resources field.
  const std::string trainjob = std::string(kTrainJob) +
                               "  podTemplateOverrides:\n"
                               "  - targetJobs: [{name: node}]\n"
                               "    spec:\n"
                               "      containers:\n"
                               "      - name: node\n"
                               "        resources: {limits: {cpu: 1}}\n";
  source::MemoryTree tree({{"repo/runtime.yaml", testkit::kPlainRuntime}, {"repo/job.yaml", trainjob}});
  Recorder sink;
  const MigrateOutcome outcome = MigrateFiles(InMemory(tree), sink);
  EXPECT_TRUE(outcome.input_errors);
  EXPECT_FALSE(sink.problems.empty());
  EXPECT_TRUE(sink.compared.empty());
}

TEST(MigrateFilesTest, RefusesBadManagersAndWritesItCannotDo) {
  source::MemoryTree tree(std::map<std::string, std::string>{{"repo/job.yaml", kTrainJob}});
  {
    MigrateRequest request = InMemory(tree);
    request.rewrite.manager = "no-domain";
    Recorder sink;
    EXPECT_TRUE(MigrateFiles(request, sink).refused);
    ASSERT_EQ(sink.problems.size(), 1u);
    EXPECT_NE(sink.problems[0].find("--manager no-domain"), std::string::npos) << sink.problems[0];
  }
  {
    MigrateRequest request = InMemory(tree);
    request.write = true;
    Recorder sink;
    EXPECT_TRUE(MigrateFiles(request, sink).refused);
  }
  {
    MigrateRequest request;
    request.paths = {"-"};
    request.write = true;
    Recorder sink;
    EXPECT_TRUE(MigrateFiles(request, sink).refused);
    ASSERT_EQ(sink.problems.size(), 1u);
    EXPECT_NE(sink.problems[0].find("--write cannot rewrite stdin"), std::string::npos);
  }
}

TEST(MigrateFilesTest, WritesThroughASymbolicLinkAndKeepsTheLink) {
  testkit::TempDir root("app-migrate");
  root.Write("repo/runtime.yaml", testkit::kPlainRuntime);
  root.Write("shared/job.yaml", kTrainJob);
  fs::create_symlink("../shared/job.yaml", root.Path("repo/job.yaml"));

  MigrateRequest request;
  request.paths = {root / "repo/job.yaml", root / "repo/runtime.yaml"};
  request.write = true;
  request.compare.threads = 1;
  Recorder sink;
  const MigrateOutcome outcome = MigrateFiles(request, sink);
  EXPECT_FALSE(outcome.input_errors);
  ASSERT_EQ(sink.files.size(), 1u);
  EXPECT_TRUE(sink.files[0].written);
  EXPECT_TRUE(fs::is_symlink(root.Path("repo/job.yaml")));
  EXPECT_EQ(root.Read("shared/job.yaml"), kMigratedTrainJob);
}

}  // namespace
}  // namespace tjr::app
