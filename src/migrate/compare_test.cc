#include "migrate/compare.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "migrate/rewrite.h"

namespace tjr::migrate {
namespace {

// A runtime without an ML policy: what differs is only what the patches do.
const char kRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: plain
spec:
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels:
              trainer.kubeflow.org/trainjob-ancestor-step: trainer
          spec:
            template:
              spec:
                containers:
                - name: node
                  image: busybox
                  env:
                  - {name: A, value: "1"}
                  - {name: B, value: "2"}
)";

const char kTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: team
spec:
  runtimeRef:
    name: plain
  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      initContainers: []
      containers:
      - name: sidecar
        env: [{name: X, value: "x"}]
)";

std::vector<doc::Node> Read(const std::string& text, const char* name) {
  auto rewrite = RewriteFile(text, name);
  EXPECT_TRUE(rewrite.ok());
  return rewrite.ok() ? rewrite->before : std::vector<doc::Node>{};
}

// The TrainJob as written (trainer-v2.1) against its migration (trainer-v2.3).
Comparison CompareMigration(const std::string& trainjob) {
  auto rewrite = RewriteFile(trainjob, "trainjob.yaml");
  EXPECT_TRUE(rewrite.ok());
  EXPECT_TRUE(rewrite->errors.empty());
  EXPECT_TRUE(rewrite->trainjobs.at(0).changed);
  std::vector<source::ParsedFile> before = {{"runtime.yaml", Read(kRuntime, "runtime.yaml")},
                                            {"trainjob.yaml", rewrite->before}};
  std::vector<source::ParsedFile> after = {{"runtime.yaml", Read(kRuntime, "runtime.yaml")},
                                           {"trainjob.yaml", rewrite->after}};
  CompareOptions options;
  options.threads = 1;
  return CompareRenders(before, after, {}, options);
}

TEST(CompareRenders, MigratedLabelsRenderAsBefore) {
  Comparison comparison = CompareMigration(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job, "
      "namespace: team}\nspec:\n  runtimeRef: {name: plain}\n  labels: {team: a}\n");
  for (const Diagnostic& error : comparison.errors) ADD_FAILURE() << error.ToString();
  EXPECT_EQ(comparison.Count(), 0u);
}

TEST(CompareRenders, MigratedOverridesRenderAsBefore) {
  Comparison comparison = CompareMigration(kTrainJob);
  for (const Diagnostic& error : comparison.errors) ADD_FAILURE() << error.ToString();
  for (const auto& trainjob : comparison.trainjobs) {
    for (const std::string& line : trainjob.differences) ADD_FAILURE() << line;
  }
}

// Two versions of the TrainJob at one target: the comparison itself.
const char kChanged[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: team
spec:
  runtimeRef:
    name: plain
  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: sidecar
        env: [{name: Q, value: "q"}, {name: X, value: "x2"}]
      nodeSelector: {a: b}
)";

TEST(CompareRenders, ReportsEachDifferenceByFieldPathWithTheTrainJobLocation) {
  std::vector<source::ParsedFile> before = {{"runtime.yaml", Read(kRuntime, "runtime.yaml")},
                                            {"trainjob.yaml", Read(kTrainJob, "trainjob.yaml")}};
  std::vector<source::ParsedFile> after = {{"runtime.yaml", Read(kRuntime, "runtime.yaml")},
                                           {"trainjob.yaml", Read(kChanged, "trainjob.yaml")}};
  CompareOptions options;
  options.threads = 1;
  options.after_target = "trainer-v2.1";
  Comparison comparison = CompareRenders(before, after, {}, options);
  for (const Diagnostic& error : comparison.errors) ADD_FAILURE() << error.ToString();
  ASSERT_EQ(comparison.trainjobs.size(), 1u);
  EXPECT_EQ(comparison.trainjobs[0].train_job, "team/job");
  EXPECT_EQ(comparison.trainjobs[0].location.line, 1u);
  std::vector<std::string> lines = comparison.trainjobs[0].differences;
  std::sort(lines.begin(), lines.end());
  const std::string pod = "spec.replicatedJobs[name=node].template.spec.template.spec.";
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "JobSet team/job: + " + pod + "containers[name=sidecar].env[name=Q]: "
                           "{\"name\":\"Q\",\"value\":\"q\"}",
                       "JobSet team/job: + " + pod + "nodeSelector: {\"a\":\"b\"}",
                       "JobSet team/job: ~ " + pod + "containers[name=sidecar].env[name=X].value: "
                           "\"x\" -> \"x2\"",
                   }));
  EXPECT_EQ(CompareRenders(before, after, {"team/job"}, options).Count(), 0u);
}

}  // namespace
}  // namespace tjr::migrate
