#include "trainer/skeleton.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::trainer {
namespace {

doc::Node Read(const std::string& text) {
  Result<std::vector<doc::Node>> docs = yaml::ReadStream(text, "t.yaml", yaml::ReadOptions{});
  EXPECT_TRUE(docs.ok() && docs->size() == 1);
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

TEST(TrainJobSkeletonTest, KeepsIdentityMetadataAndRuntimeRefWithTheirLocations) {
  doc::Node job = Read(
      "apiVersion: trainer.kubeflow.org/v1alpha1\n"
      "kind: TrainJob\n"
      "metadata:\n"
      "  name: j\n"
      "  annotations:\n"
      "    tjrender.io/ignore: w\n"
      "spec:\n"
      "  trainer:\n"
      "    numNodes: 2\n"
      "  runtimeRef:\n"
      "    name: torch\n"
      "status: {}\n");
  std::optional<doc::Node> skeleton = TrainJobSkeleton(job);
  ASSERT_TRUE(skeleton.has_value());
  doc::Node expected = Read(
      "apiVersion: trainer.kubeflow.org/v1alpha1\n"
      "kind: TrainJob\n"
      "metadata:\n"
      "  name: j\n"
      "  annotations:\n"
      "    tjrender.io/ignore: w\n"
      "spec:\n"
      "  runtimeRef:\n"
      "    name: torch\n");
  EXPECT_TRUE(*skeleton == expected);
  EXPECT_EQ(skeleton->location().ToString(), job.location().ToString());
  EXPECT_EQ(skeleton->Find("spec")->Find("runtimeRef")->location().line, 11u);
  EXPECT_EQ(skeleton->Find("metadata")->Find("name")->location().line, 4u);
}

TEST(TrainJobSkeletonTest, OnlyTrainJobsOfTheTrainerApi) {
  EXPECT_FALSE(TrainJobSkeleton(Read("apiVersion: v1\nkind: TrainJob\nmetadata: {name: x}\n")));
  EXPECT_FALSE(TrainJobSkeleton(Read("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\n")));
  EXPECT_FALSE(TrainJobSkeleton(Read("- a\n")));
  EXPECT_TRUE(TrainJobSkeleton(Read("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nspec: 3\n")));
}

}  // namespace
}  // namespace tjr::trainer
