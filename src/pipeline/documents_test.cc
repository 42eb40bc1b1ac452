#include "pipeline/documents.h"

#include <gtest/gtest.h>

#include "pipeline/test_util.h"

namespace tjr::pipeline {
namespace {

TEST(ManifestsFromDocuments, KeepsTrainerKindsPlacesNamespacesAndCountsTheRest) {
  source::ManifestSet set = testing::Manifests(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: c}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: a}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: r, namespace: x}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: a, namespace: default}
)");
  ASSERT_EQ(set.manifests.size(), 2u);
  EXPECT_EQ(set.manifests[0].id.ToString(), "trainer.kubeflow.org/v1alpha1/TrainJob default/a");
  EXPECT_EQ(set.manifests[1].id.ToString(), "trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime r");
  EXPECT_EQ(set.manifests[1].object.Find("metadata")->Find("namespace"), nullptr);
  EXPECT_EQ((set.ignored[{"v1", "ConfigMap"}]), 1u);
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].ToString(),
            "repo.yaml:13:1: error: duplicate TrainJob default/a: already defined at repo.yaml:5:1");
  EXPECT_EQ(set.diagnostics[0].category, Category::kInput);
}

TEST(ManifestsFromDocuments, NamelessObjectIsAnInputError) {
  source::ManifestSet set =
      testing::Manifests("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {}\n");
  EXPECT_TRUE(set.manifests.empty());
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].ToString(),
            "repo.yaml:1:1: error: metadata.name: required: the object has no name");
}

}  // namespace
}  // namespace tjr::pipeline
