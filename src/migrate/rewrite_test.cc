#include "migrate/rewrite.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tjr::migrate {
namespace {

// Lines joined with `eol`, ending with one.
std::string Lines(const std::vector<std::string>& lines, const std::string& eol = "\n") {
  std::string text;
  for (const std::string& line : lines) text += line + eol;
  return text;
}

FileRewrite Rewrite(const std::string& text, const RewriteOptions& options = {}) {
  auto result = RewriteFile(text, "trainjob.yaml", options);
  EXPECT_TRUE(result.ok()) << result.error().ToString();
  return result.ok() ? std::move(result).value() : FileRewrite{};
}

TEST(RewriteFile, BlockStyleKeepsCommentsQuotingAndEverythingOutsideTheBlocks) {
  const std::string before = Lines({
      "# header comment",
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata:",
      "  name: job   # keep me",
      "spec:",
      "  runtimeRef:",
      "    name: torch-distributed",
      "  labels:",
      "    team: \"ml\"",
      "  podTemplateOverrides:",
      "  # overrides for the trainer",
      "  - targetJobs:",
      "    - name: node",
      "    spec:",
      "      nodeSelector:",
      "        # inside",
      "        gpu: 'a100'   # quoted",
      "  trainer:",
      "    numNodes: 2",
  });
  const std::string after = Lines({
      "# header comment",
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata:",
      "  name: job   # keep me",
      "spec:",
      "  runtimeRef:",
      "    name: torch-distributed",
      "  runtimePatches:",
      "  - manager: trainer.kubeflow.org/kubeflow-sdk",
      "    trainingRuntimeSpec:",
      "      template:",
      "        metadata:",
      "          labels:",
      "            team: \"ml\"",
      "        spec:",
      "          replicatedJobs:",
      "          - name: node",
      "            template:",
      "              spec:",
      "                template:",
      "                  spec:",
      "                    nodeSelector:",
      "                      # inside",
      "                      gpu: 'a100'   # quoted",
      "  trainer:",
      "    numNodes: 2",
  });
  FileRewrite result = Rewrite(before);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.text, after);
  ASSERT_EQ(result.trainjobs.size(), 1u);
  EXPECT_TRUE(result.trainjobs[0].changed);
  EXPECT_EQ(result.trainjobs[0].name, "job");
}

TEST(RewriteFile, CrlfFourSpaceIndentIndentedSequencesAndOtherDocumentsUntouched) {
  const std::string eol = "\r\n";
  const std::string before = Lines(
      {
          "apiVersion: v1",
          "kind: ConfigMap",
          "metadata:",
          "    name: other",
          "data: {podTemplateOverrides: x}",
          "---",
          "apiVersion: trainer.kubeflow.org/v1alpha1",
          "kind: TrainJob",
          "metadata:",
          "    name: job",
          "spec:",
          "    podTemplateOverrides:",
          "        - targetJobs:",
          "              - name: node",
          "          metadata:",
          "              labels: {a: b}",
          "        - targetJobs: [{name: node}]",
          "          spec:",
          "              tolerations: []",
          "    runtimeRef:",
          "        name: torch",
      },
      eol);
  const std::string after = Lines(
      {
          "apiVersion: v1",
          "kind: ConfigMap",
          "metadata:",
          "    name: other",
          "data: {podTemplateOverrides: x}",
          "---",
          "apiVersion: trainer.kubeflow.org/v1alpha1",
          "kind: TrainJob",
          "metadata:",
          "    name: job",
          "spec:",
          "    runtimePatches:",
          "        - manager: example.com/team",
          "          trainingRuntimeSpec:",
          "              template:",
          "                  spec:",
          "                      replicatedJobs:",
          "                          - name: node",
          "                            template:",
          "                                spec:",
          "                                    template:",
          "                                        metadata:",
          "                                            labels: {a: b}",
          "        - manager: example.com/team-2",
          "          trainingRuntimeSpec:",
          "              template:",
          "                  spec:",
          "                      replicatedJobs:",
          "                          - name: node",
          "                            template:",
          "                                spec:",
          "                                    template:",
          "                                        spec:",
          "                                            tolerations: []",
          "    runtimeRef:",
          "        name: torch",
      },
      eol);
  RewriteOptions options;
  options.manager = "example.com/team";
  FileRewrite result = Rewrite(before, options);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.text, after);
}

TEST(RewriteFile, FlowSpecStaysFlowAndTheCommaGoesWithTheRemovedEntry) {
  const std::string before =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
      "spec: {runtimeRef: {name: torch}, podTemplateOverrides: [{targetJobs: [{name: node}], "
      "spec: {nodeSelector: {a: b}}}], labels: {x: \"y\"}}\n";
  const std::string after =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
      "spec: {runtimeRef: {name: torch}, runtimePatches: [{manager: "
      "trainer.kubeflow.org/kubeflow-sdk, trainingRuntimeSpec: {template: {metadata: {labels: "
      "{x: \"y\"}}, spec: {replicatedJobs: [{name: node, template: {spec: {template: {spec: "
      "{nodeSelector: {a: b}}}}}}]}}}}]}\n";
  FileRewrite result = Rewrite(before);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.text, after);
}

TEST(RewriteFile, JsonFilesGetJsonKeysAndStrings) {
  const std::string before =
      "{\"apiVersion\": \"trainer.kubeflow.org/v1alpha1\", \"kind\": \"TrainJob\", \"metadata\": "
      "{\"name\": \"j\"}, \"spec\": {\"podTemplateOverrides\": [{\"targetJobs\": [{\"name\": "
      "\"node\"}], \"spec\": {\"nodeSelector\": {\"a\": \"b\"}}}]}}\n";
  const std::string after =
      "{\"apiVersion\": \"trainer.kubeflow.org/v1alpha1\", \"kind\": \"TrainJob\", \"metadata\": "
      "{\"name\": \"j\"}, \"spec\": {\"runtimePatches\": [{\"manager\": "
      "\"trainer.kubeflow.org/kubeflow-sdk\", \"trainingRuntimeSpec\": {\"template\": {\"spec\": "
      "{\"replicatedJobs\": [{\"name\": \"node\", \"template\": {\"spec\": {\"template\": "
      "{\"spec\": {\"nodeSelector\": {\"a\": \"b\"}}}}}}]}}}}]}}\n";
  FileRewrite result = Rewrite(before);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.text, after);
}

TEST(RewriteFile, Utf16FilesAreRefusedNotSplicedIntoByOffset) {
  const std::string utf8 =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\nspec:\n"
      "  podTemplateOverrides: [{targetJobs: [{name: node}], spec: {nodeSelector: {a: b}}}]\n";
  std::string utf16 = "\xFF\xFE";
  for (char c : utf8) {
    utf16.push_back(c);
    utf16.push_back('\0');
  }
  auto result = RewriteFile(utf16, "trainjob.yaml", {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().ToString(),
            "trainjob.yaml:1:1: error: cannot rewrite a UTF-16 file in place; convert it to UTF-8 first (iconv -f "
            "UTF-16 -t UTF-8)");
}

TEST(RewriteFile, FieldsWithoutAPlaceLeaveThatTrainJobUnchangedAndOthersMigrate) {
  const std::string bad = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: bad}",
      "spec:",
      "  podTemplateOverrides:",
      "  - targetJobs: [{name: node}]",
      "    spec:",
      "      containers:",
      "      - name: node",
      "        resources: {limits: {cpu: 1}}",
  });
  const std::string good = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: good}",
      "spec:",
      "  annotations:",
      "    a: b",
  });
  const std::string good_after = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: good}",
      "spec:",
      "  runtimePatches:",
      "  - manager: trainer.kubeflow.org/kubeflow-sdk",
      "    trainingRuntimeSpec:",
      "      template:",
      "        metadata:",
      "          annotations:",
      "            a: b",
  });
  FileRewrite result = Rewrite(bad + "---\n" + good);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].ToString(),
            "trainjob.yaml:10:9: error: spec.podTemplateOverrides[0].spec.containers[0].resources: "
            "cannot migrate: runtimePatches' ContainerPatch has no such field");
  EXPECT_EQ(result.text, bad + "---\n" + good_after);
  ASSERT_EQ(result.trainjobs.size(), 2u);
  EXPECT_FALSE(result.trainjobs[0].changed);
  EXPECT_TRUE(result.trainjobs[1].changed);
}

TEST(RewriteFile, AnAliasedOverrideListIsRefusedNotGuessed) {
  const std::string before = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: j}",
      "x-common: &ovr [{targetJobs: [{name: node}], spec: {nodeSelector: {a: b}}}]",
      "spec:",
      "  podTemplateOverrides: *ovr",
  });
  FileRewrite result = Rewrite(before);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_NE(result.errors[0].message.find("alias"), std::string::npos)
      << result.errors[0].ToString();
  EXPECT_EQ(result.errors[0].location.line, 1u);
  EXPECT_EQ(result.text, before);
}

TEST(RewriteFile, AnchorsBeforeTheBlockStillResolve) {
  const std::string before = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: j, labels: &l {team: a}}",
      "spec:",
      "  labels: *l",
  });
  const std::string after = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: j, labels: &l {team: a}}",
      "spec:",
      "  runtimePatches:",
      "  - manager: trainer.kubeflow.org/kubeflow-sdk",
      "    trainingRuntimeSpec:",
      "      template:",
      "        metadata:",
      "          labels: *l",
  });
  FileRewrite result = Rewrite(before);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.text, after);
}

TEST(RewriteFile, FilesWithoutV21FieldsKeepTheirBytes) {
  const std::string before =
      "kind: ConfigMap\n---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
      "metadata: {name: j}\nspec: {runtimeRef: {name: torch}}  # x\n";
  FileRewrite result = Rewrite(before);
  EXPECT_EQ(result.text, before);
  EXPECT_TRUE(result.errors.empty());
  ASSERT_EQ(result.trainjobs.size(), 1u);
  EXPECT_FALSE(result.trainjobs[0].changed);
}

TEST(RewriteFile, ExistingRuntimePatchesAreNotMergedByGuesswork) {
  const std::string before = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: j}",
      "spec:",
      "  labels: {a: b}",
      "  runtimePatches: []",
  });
  FileRewrite result = Rewrite(before);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].field_path, "spec.runtimePatches");
  EXPECT_EQ(result.text, before);
}

TEST(RewriteFile, TrainJobsInsideAListAreReportedNotRewritten) {
  const std::string before = Lines({
      "apiVersion: v1",
      "kind: List",
      "items:",
      "- apiVersion: trainer.kubeflow.org/v1alpha1",
      "  kind: TrainJob",
      "  metadata: {name: j}",
      "  spec: {labels: {a: b}}",
  });
  FileRewrite result = Rewrite(before);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].location.line, 4u);
  ASSERT_EQ(result.trainjobs.size(), 1u);
  EXPECT_TRUE(result.trainjobs[0].failed);
  EXPECT_EQ(result.text, before);
}

TEST(RewriteFile, Pr3199PreviewWritesTemplateOverridesOneOverridePerManager) {
  const std::string before = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: j}",
      "spec:",
      "  labels:",
      "    team: a",
      "  podTemplateOverrides:",
      "  - targetJobs:",
      "    - name: node",
      "    spec:",
      "      nodeSelector: {gpu: a100}",
      "  - targetJobs: [{name: node}, {name: launcher}]",
      "    metadata:",
      "      labels: {x: z}",
  });
  const std::string after = Lines({
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: j}",
      "spec:",
      "  templateOverrides:",
      "  - manager: trainer.kubeflow.org/kubeflow-sdk",
      "    job:",
      "    - metadata:",
      "        labels:",
      "          team: a",
      "    pod:",
      "    - targetJobs:",
      "      - name: node",
      "      spec:",
      "        nodeSelector: {gpu: a100}",
      "  - manager: trainer.kubeflow.org/kubeflow-sdk-2",
      "    pod:",
      "    - targetJobs: [{name: node}, {name: launcher}]",
      "      metadata:",
      "        labels: {x: z}",
  });
  RewriteOptions options;
  options.shape = Shape::kTemplateOverridesPreview;
  FileRewrite result = Rewrite(before, options);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.text, after);
}

TEST(RewriteFile, MalformedYamlIsAnInputError) {
  EXPECT_FALSE(RewriteFile("a: [\n", "x.yaml").ok());
}

TEST(RewriteFile, ALoneCarriageReturnBeforeSpecKeepsTheIndentation) {
  // A lone CR ends "namespace: default" for the YAML reader (as for goyaml);
  // measured on "\n" lines only, `spec:` sat at column 21 over children at
  // column 2 and the indentation wrapped to 2^64 (migrate_splice fuzz crash:
  // std::length_error).
  const std::string text = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job\n"
                           "  namespace: default\rspec:\n  runtimeRef:\n    name: rt\n  podTemplateOverrides:\n"
                           "  - targetJobs: [{name: node}]\n    spec:\n      nodeSelector: {a: b}\n";
  FileRewrite rewrite = Rewrite(text);
  EXPECT_TRUE(rewrite.errors.empty());
  EXPECT_NE(rewrite.text.find("\n  runtimePatches:\n  - manager: trainer.kubeflow.org/kubeflow-sdk\n"), std::string::npos)
      << rewrite.text;
}

}  // namespace
}  // namespace tjr::migrate
