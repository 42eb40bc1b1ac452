#include "source/document_class.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::source {
namespace {

DocumentVerdict Classify(const std::string& text) {
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, "t.yaml");
  EXPECT_TRUE(documents.ok()) << text;
  EXPECT_EQ(documents->size(), 1u);
  return ClassifyDocument(documents->front(), TrainerObjectTypes());
}

TEST(ClassifyDocumentTest, ObjectsNeedStringApiVersionAndKind) {
  EXPECT_EQ(Classify("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n").kind, DocumentClass::kObject);
  EXPECT_EQ(Classify("apiVersion: v1\nkind: List\nitems: []\n").kind, DocumentClass::kObject);
  // Not objects: what a repository holds besides manifests.
  DocumentVerdict workflow = Classify("name: ci\non: [push]\njobs: {build: {runs-on: ubuntu-24.04}}\n");
  EXPECT_EQ(workflow.kind, DocumentClass::kNotAnObject);
  EXPECT_EQ(workflow.why, "not a Kubernetes object (no string apiVersion and kind)");
  // Chart.yaml has an apiVersion and no kind.
  EXPECT_EQ(Classify("apiVersion: v2\nname: chart\nversion: 0.1.0\n").why, "not a Kubernetes object (no string kind)");
  EXPECT_EQ(Classify("kind: Foo\nbar: 1\n").why, "not a Kubernetes object (no string apiVersion)");
  EXPECT_EQ(Classify("apiVersion: [v1]\nkind: Deployment\n").kind, DocumentClass::kNotAnObject);
  EXPECT_EQ(Classify("apiVersion: v1\nkind: \"\"\n").kind, DocumentClass::kNotAnObject);
  EXPECT_EQ(Classify("- op: add\n  path: /metadata/namespace\n  value: x\n").why,
            "a YAML sequence, not an object (a JSON 6902 patch list?)");
  EXPECT_EQ(Classify("just text\n").why, "a string, not an object");
  EXPECT_EQ(Classify("42\n").why, "an integer, not an object");
}

TEST(ClassifyDocumentTest, ClaimsOfTrainerKindsStayObjectsSoTheirFlawsAreErrors) {
  // A missing or wrong apiVersion/kind on what is plainly a Trainer object
  // or a PodTemplate is reported by the loader, never skipped.
  for (const char* text : {"kind: TrainJob\nmetadata: {name: a}\n",
                           "kind: ClusterTrainingRuntime\napiVersion: 3\n",
                           "apiVersion: trainer.kubeflow.org/v1alpha1\nmetadata: {name: a}\n",
                           "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: [TrainJob]\n",
                           "apiVersion: trainer.kubeflow.org/v1beta1\nkind: Whatever\n",
                           "kind: PodTemplate\ntemplate: {}\n"}) {
    EXPECT_EQ(Classify(text).kind, DocumentClass::kObject) << text;
  }
  // ConfigMap is a kind of every repository: no claim without apiVersion.
  EXPECT_EQ(Classify("kind: ConfigMap\ndata: {}\n").kind, DocumentClass::kNotAnObject);
}

TEST(ClassifyDocumentTest, ToolConfigurationIsConfigOnly) {
  DocumentVerdict kustomization =
      Classify("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n");
  EXPECT_EQ(kustomization.kind, DocumentClass::kConfigOnly);
  EXPECT_EQ(kustomization.why,
            "Kustomization (kustomize.config.k8s.io/v1beta1) is kustomize's configuration, not a cluster object");
  EXPECT_EQ(Classify("apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n").kind,
            DocumentClass::kConfigOnly);
  EXPECT_EQ(Classify("apiVersion: builtin\nkind: PatchTransformer\nmetadata: {name: p}\n").kind,
            DocumentClass::kConfigOnly);
  EXPECT_EQ(Classify("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: p}\n").kind,
            DocumentClass::kConfigOnly);
  EXPECT_EQ(Classify("apiVersion: argoproj.io/v1alpha1\nkind: ConfigManagementPlugin\n").kind,
            DocumentClass::kConfigOnly);
  // Argo CD's real objects are not.
  EXPECT_EQ(Classify("apiVersion: argoproj.io/v1alpha1\nkind: Application\n").kind, DocumentClass::kObject);
  DocumentVerdict local = Classify(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\n  annotations:\n"
      "    config.kubernetes.io/local-config: \"true\"\n");
  EXPECT_EQ(local.kind, DocumentClass::kConfigOnly);
  EXPECT_EQ(local.why,
            "ConfigMap is marked config.kubernetes.io/local-config: \"true\" (input to client-side tools, never "
            "applied)");
  EXPECT_EQ(Classify("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\n  annotations:\n"
                     "    config.kubernetes.io/local-config: \"false\"\n")
                .kind,
            DocumentClass::kObject);
}

}  // namespace
}  // namespace tjr::source
