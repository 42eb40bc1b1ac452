#include "pipeline/patch_warnings.h"

#include <gtest/gtest.h>

#include "pipeline/warnings.h"
#include "yaml/reader.h"

namespace tjr::pipeline {
namespace {

doc::Node Yaml(std::string_view text) {
  Result<std::vector<doc::Node>> docs = yaml::ReadStream(text, "tj.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

// The torch-distributed runtime's shape: one job `node`, container `node`.
constexpr std::string_view kRuntime = R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-distributed}
spec:
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          spec:
            template:
              spec:
                initContainers: [{name: prep, image: busybox}]
                containers: [{name: node, image: pytorch}]
)";

doc::Node TrainJob(std::string_view patches) {
  return Yaml(std::string("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
                          "spec:\n  runtimeRef: {name: torch-distributed}\n  runtimePatches:\n") +
              std::string(patches));
}

std::string Job(std::string_view manager, std::string_view job, std::string_view pod_spec) {
  return "  - manager: " + std::string(manager) +
         "\n    trainingRuntimeSpec:\n      template:\n        spec:\n          replicatedJobs:\n          - name: " +
         std::string(job) + "\n            template: {spec: {template: {spec: " + std::string(pod_spec) + "}}}\n";
}

std::vector<std::string> Found(const doc::Node& trainjob, trainer::TrainerVersion version = trainer::TrainerVersion::kV2_3,
                               const doc::Node* old = nullptr) {
  std::vector<std::string> out;
  for (const Diagnostic& d : CheckRuntimePatches(trainjob, Yaml(kRuntime), version, old)) {
    EXPECT_EQ(d.severity, Severity::kWarning);
    out.push_back(std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + " " + d.message);
  }
  return out;
}

TEST(PatchWarnings, TrainerContainerOfTheDocs) {
  std::vector<std::string> found =
      Found(TrainJob(Job("kueue.x-k8s.io/m", "node", "{containers: [{name: trainer, volumeMounts: [{name: d, mountPath: /d}]}]}")));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0],
            "13:62 [patch-container-trainer] manager \"kueue.x-k8s.io/m\" (runtimePatches[0]) patches container "
            "\"trainer\" of job \"node\", but the runtime's trainer container is \"node\" (the upstream runtime-patches "
            "guide's examples say \"trainer\"): the controller's strategic merge adds a new container \"trainer\" with "
            "only the patched fields and no image, and Kubernetes refuses the Job's pod template (image: Required "
            "value)");
}

TEST(PatchWarnings, UnknownJobOnlyFromV23) {
  // Unknown (init) containers other than the docs' `trainer` are left to
  // override-container-unknown on the rendered JobSet.
  std::vector<std::string> found =
      Found(TrainJob(Job("a.io/m", "node", "{initContainers: [{name: node}, {name: prep}]}") +
                     Job("b.io/m", "workers", "{nodeSelector: {a: b}}")));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("[patch-job-unknown] manager \"b.io/m\" (runtimePatches[1]) patches replicatedJob "
                          "\"workers\""),
            std::string::npos);
  // v2.2's webhook refuses the unknown job; no warning for it there.
  EXPECT_EQ(Found(TrainJob(Job("b.io/m", "workers", "{nodeSelector: {a: b}}")), trainer::TrainerVersion::kV2_2).size(),
            0u);
}

TEST(PatchWarnings, TheTrainerWarningReplacesTheGenericOne) {
  doc::Node job = TrainJob(Job("kueue.x-k8s.io/m", "node", "{containers: [{name: trainer}]}"));
  Diagnostics patch = CheckRuntimePatches(job, Yaml(kRuntime), trainer::TrainerVersion::kV2_3, nullptr);
  ASSERT_EQ(patch.size(), 1u);
  Diagnostic generic = patch[0];
  generic = MakeWarning(generic.location, kRuleUnknownContainer, "container \"trainer\" is not in job \"node\"");
  Diagnostic elsewhere = generic;
  elsewhere.location.line += 1;
  Diagnostics rendered = {generic, elsewhere};
  SupersedeRendered(&rendered, patch);
  ASSERT_EQ(rendered.size(), 1u);
  EXPECT_EQ(rendered[0].location.line, generic.location.line + 1);
}

TEST(PatchWarnings, TwoManagersOnOneField) {
  // trainingruntime_test.go "succeeded to build JobSet with TrainJob's
  // RuntimePatches targeting the same job with different values".
  std::vector<std::string> found =
      Found(TrainJob(Job("a.io/m", "node",
                         "{nodeSelector: {pool: a, zone: z}, tolerations: [{key: x}], serviceAccountName: one, "
                         "containers: [{name: node, securityContext: {runAsUser: 1}}]}") +
                     Job("b.io/m", "node",
                         "{nodeSelector: {pool: b, zone: z}, tolerations: [{key: y}], schedulingGates: [{name: g}], "
                         "containers: [{name: node, securityContext: {runAsUser: 2}}]}")));
  ASSERT_EQ(found.size(), 3u);
  EXPECT_NE(found[0].find("[patch-manager-overlap] managers \"a.io/m\" (runtimePatches[0]) and \"b.io/m\" "
                          "(runtimePatches[1]) both set template.spec.template.spec.containers[name=node]."
                          "securityContext.runAsUser of replicatedJob \"node\": patches apply in list order, so "
                          "\"b.io/m\"'s value silently replaces \"a.io/m\"'s"),
            std::string::npos)
      << found[0];
  EXPECT_NE(found[1].find("both set template.spec.template.spec.nodeSelector[pool] of replicatedJob \"node\""),
            std::string::npos)
      << found[1];
  EXPECT_NE(found[2].find("both set the list template.spec.template.spec.tolerations (replaced, not merged)"),
            std::string::npos)
      << found[2];
}

TEST(PatchWarnings, JobSetLabelsOfTwoManagers) {
  std::vector<std::string> found = Found(TrainJob(R"(  - manager: a.io/m
    trainingRuntimeSpec: {template: {metadata: {labels: {team: a}}}}
  - manager: b.io/m
    trainingRuntimeSpec: {template: {metadata: {labels: {team: b, other: x}}}}
)"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("both set metadata.labels[team] of the JobSet"), std::string::npos) << found[0];
}

TEST(PatchWarnings, TimeWrittenByHand) {
  doc::Node job = TrainJob("  - manager: a.io/m\n    time: '2026-01-01T00:00:00Z'\n");
  std::vector<std::string> created = Found(job);
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0],
            "8:11 [patch-time-written] runtimePatches[0].time of manager \"a.io/m\" is written by hand, but the Trainer "
            "admission webhook owns it: it keeps the written value on this create, but on a later update it puts back "
            "the stored time (entry unchanged) or sets the time of the update (entry changed), whatever the manifest "
            "says");
  // webhook_test.go TestDefault "UPDATE, patch unchanged: Time preserved".
  doc::Node old = TrainJob("  - manager: a.io/m\n    time: '2025-06-01T10:00:00Z'\n");
  std::vector<std::string> unchanged = Found(job, trainer::TrainerVersion::kV2_3, &old);
  ASSERT_EQ(unchanged.size(), 1u);
  EXPECT_NE(unchanged[0].find("this entry is unchanged, so it puts back the stored time 2025-06-01T10:00:00Z and the written value is discarded"),
            std::string::npos);
  // "UPDATE, patch changed: Time updated".
  doc::Node changed = TrainJob("  - manager: a.io/m\n    time: '2026-01-01T00:00:00Z'\n"
                               "    trainingRuntimeSpec: {template: {metadata: {labels: {a: b}}}}\n");
  std::vector<std::string> updated = Found(changed, trainer::TrainerVersion::kV2_3, &old);
  ASSERT_EQ(updated.size(), 1u);
  EXPECT_NE(updated[0].find("this entry changed, so it sets the time of the update and the written value is discarded"),
            std::string::npos);
}

}  // namespace
}  // namespace tjr::pipeline
