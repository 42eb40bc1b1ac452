#include "source/loader.h"

#include <gtest/gtest.h>

#include "pipeline/test_util.h"

// Admission of parsed documents, through the pipeline tests' helper that
// parses a YAML string.

namespace tjr::source {
namespace {

TEST(AdmitDocuments, KeepsTrainerKindsPlacesNamespacesAndCountsTheRest) {
  source::ManifestSet set = pipeline::testing::Manifests(R"(apiVersion: v1
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
  // The two copies of default/a are findings, and neither is kept.
  ASSERT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(set.manifests[0].id.ToString(), "trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime r");
  EXPECT_EQ(set.manifests[0].object.Find("metadata")->Find("namespace"), nullptr);
  EXPECT_EQ((set.ignored[{"v1", "ConfigMap"}]), 1u);
  // The loader notes the ignored namespace of the cluster-scoped runtime.
  ASSERT_EQ(set.diagnostics.size(), 3u);
  EXPECT_EQ(set.diagnostics[0].severity, Severity::kNote);
  EXPECT_EQ(set.diagnostics[1].ToString(),
            "repo.yaml:5:1: error: [duplicate-object] duplicate TrainJob default/a: also defined at repo.yaml:13:1; "
            "no copy is rendered or checked");
  EXPECT_EQ(set.diagnostics[2].ToString(),
            "repo.yaml:13:1: error: [duplicate-object] duplicate TrainJob default/a: also defined at repo.yaml:5:1; "
            "no copy is rendered or checked");
  EXPECT_EQ(set.diagnostics[1].category, Category::kFinding);
}

TEST(AdmitDocuments, NamelessObjectIsAnInputError) {
  source::ManifestSet set =
      pipeline::testing::Manifests("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {}\n");
  EXPECT_TRUE(set.manifests.empty());
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].ToString(),
            "repo.yaml:1:1: error: metadata.name: required: the object has no name");
}

}  // namespace
}  // namespace tjr::source
