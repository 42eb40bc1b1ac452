#include "source/embedded_runtimes.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::source {
namespace {

std::vector<doc::Node> Expand(const std::string& text, Diagnostics* diagnostics) {
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, "chart.yaml");
  EXPECT_TRUE(documents.ok()) << text;
  ExpandEmbeddedRuntimes(text, &documents.value(), diagnostics);
  return documents.value();
}

// The kubeflow-trainer chart's shape (v2.3.0 templates/runtimes/configmap.yaml):
// `runtimes.yaml: |` and the runtime files indented by four, `---` between.
const char kChartOutput[] =
    "apiVersion: v1\n"                                  // 1
    "kind: ConfigMap\n"                                 // 2
    "metadata:\n"                                       // 3
    "  name: trainer-runtimes-installer\n"              // 4
    "data:\n"                                           // 5
    "  runtimes.yaml: |\n"                              // 6
    "    ---\n"                                         // 7
    "    # Copyright header\n"                          // 8
    "    apiVersion: trainer.kubeflow.org/v1alpha1\n"   // 9
    "    kind: ClusterTrainingRuntime\n"                // 10
    "    metadata:\n"                                   // 11
    "      name: torch-distributed\n"                   // 12
    "    \n"                                            // 13
    "    ---\n"                                         // 14
    "    apiVersion: trainer.kubeflow.org/v1alpha1\n"   // 15
    "    kind: ClusterTrainingRuntime\n"                // 16
    "    metadata:\n"                                   // 17
    "      name: jax-distributed\n";                    // 18

TEST(EmbeddedRuntimesTest, RuntimesOfTheChartConfigMapFollowIt) {
  Diagnostics diagnostics;
  std::vector<doc::Node> documents = Expand(kChartOutput, &diagnostics);
  ASSERT_EQ(documents.size(), 3u);
  EXPECT_EQ(doc::StringAt(documents[0], "kind"), "ConfigMap");
  EXPECT_EQ(doc::StringAtPath(documents[1], {"metadata", "name"}), "torch-distributed");
  EXPECT_EQ(doc::StringAtPath(documents[2], {"metadata", "name"}), "jax-distributed");
  // Each node where its text stands in the file.
  EXPECT_EQ(documents[1].location().ToString(), "chart.yaml:9:5");
  EXPECT_EQ(documents[1].Find("metadata")->Find("name")->location().ToString(), "chart.yaml:12:13");
  EXPECT_EQ(documents[2].Find("kind")->location().ToString(), "chart.yaml:16:11");
  ASSERT_EQ(diagnostics.size(), 1u);  // the --verbose note
  EXPECT_EQ(diagnostics[0].severity, Severity::kNote);
  EXPECT_NE(diagnostics[0].message.find("read 2 Trainer runtime(s)"), std::string::npos);
}

TEST(EmbeddedRuntimesTest, AQuotedValueLocatesEveryNodeAtTheValue) {
  const std::string text =
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
      "data:\n  runtimes.yaml: \"apiVersion: trainer.kubeflow.org/v1alpha1\\nkind: TrainingRuntime\\n"
      "metadata: {name: a}\\n\"\n";
  Diagnostics diagnostics;
  std::vector<doc::Node> documents = Expand(text, &diagnostics);
  ASSERT_EQ(documents.size(), 2u);
  EXPECT_EQ(doc::StringAt(documents[1], "kind"), "TrainingRuntime");
  EXPECT_EQ(documents[1].Find("kind")->location().line, 5u);
}

TEST(EmbeddedRuntimesTest, OnlyAConfigMapOfRuntimesOnly) {
  Diagnostics diagnostics;
  // Another kind beside the runtime: some other ConfigMap, left alone.
  std::vector<doc::Node> mixed = Expand(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  runtimes.yaml: |\n"
      "    apiVersion: trainer.kubeflow.org/v1alpha1\n    kind: ClusterTrainingRuntime\n    metadata: {name: a}\n"
      "    ---\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: b}\n",
      &diagnostics);
  EXPECT_EQ(mixed.size(), 1u);
  // Another key, another kind of object.
  EXPECT_EQ(Expand("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  other.yaml: |\n"
                   "    apiVersion: trainer.kubeflow.org/v1alpha1\n    kind: ClusterTrainingRuntime\n",
                   &diagnostics)
                .size(),
            1u);
  EXPECT_EQ(Expand("apiVersion: v1\nkind: Secret\nmetadata: {name: x}\nstringData:\n  runtimes.yaml: |\n"
                   "    apiVersion: trainer.kubeflow.org/v1alpha1\n    kind: ClusterTrainingRuntime\n",
                   &diagnostics)
                .size(),
            1u);
  EXPECT_TRUE(diagnostics.empty());
}

TEST(EmbeddedRuntimesTest, MalformedRuntimesAreAnErrorInsideTheBlock) {
  Diagnostics diagnostics;
  std::vector<doc::Node> documents = Expand(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  runtimes.yaml: |\n"
      "    apiVersion: trainer.kubeflow.org/v1alpha1\n    kind: ClusterTrainingRuntime\n    metadata: [a\n",
      &diagnostics);
  EXPECT_EQ(documents.size(), 1u);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].category, Category::kInput);
  EXPECT_EQ(diagnostics[0].field_path, "data[runtimes.yaml]");
  EXPECT_GE(diagnostics[0].location.line, 6u) << diagnostics[0].ToString();
}

}  // namespace
}  // namespace tjr::source
