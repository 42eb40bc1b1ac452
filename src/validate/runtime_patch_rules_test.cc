// The JobSet plugin's runtimePatches rules from Trainer v2.2.0 on
// (trainer-runtimepatches.md §3.2-3.4; jobset_test.go TestValidate).
#include <gtest/gtest.h>

#include "validate/test_util.h"
#include "validate/validate.h"
#include "validate/test_options.h"

namespace tjr::validate {
namespace {

using testing::LineCol;
using testing::Messages;
using testing::Yaml;

constexpr std::string_view kRuntime = R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-distributed}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                containers:
                - name: node
                  image: pytorch
)";

doc::Node TrainJob(std::string_view patches, std::string_view extra = "", bool suspend = false) {
  return Yaml(std::string(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: torch-distributed, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}
  suspend: )") + (suspend ? "true" : "false") + "\n" + std::string(extra) +
              "  runtimePatches:\n" + std::string(patches));
}

ValidateOptions Release(trainer::TrainerVersion version) {
  ValidateOptions options = V21Options();
  options.version = version;
  return options;
}

std::vector<std::string> Webhook(const doc::Node& trainjob, const ValidateOptions& options) {
  return Messages(ValidateTrainJobWebhook(trainjob, Yaml(kRuntime), options));
}

TEST(RuntimePatchRules, ManagerMustBeDomainPrefixed) {
  // test/integration/webhooks/trainjob_test.go "Should fail to create
  // trainJob with invalid RuntimePatches manager" (kueue.k8s.io/).
  EXPECT_EQ(Webhook(TrainJob("  - manager: kueue.k8s.io/\n"), Release(trainer::TrainerVersion::kV2_3)),
            std::vector<std::string>{"spec.runtimePatches.manager: Invalid value: \"kueue.k8s.io/\": must be a "
                                     "domain-prefixed path (such as \"acme.io/foo\")"});
  EXPECT_EQ(Webhook(TrainJob("  - manager: user\n"), Release(trainer::TrainerVersion::kV2_2)),
            std::vector<std::string>{"spec.runtimePatches.manager: Invalid value: \"user\": must be a "
                                     "domain-prefixed path (such as \"acme.io/foo\")"});
  EXPECT_TRUE(Webhook(TrainJob("  - manager: kueue.k8s.io/manager\n"), Release(trainer::TrainerVersion::kV2_3)).empty());
}

TEST(RuntimePatchRules, ManagerHostAndPathShapes) {
  Diagnostics found = ValidateTrainJobWebhook(TrainJob("  - manager: Acme.IO/a b\n"), Yaml(kRuntime),
                                              Release(trainer::TrainerVersion::kV2_3));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].message,
            "spec.runtimePatches.manager: Invalid value: \"Acme.IO\": a lowercase RFC 1123 subdomain must consist of "
            "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
            "(e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  EXPECT_EQ(found[1].message,
            "spec.runtimePatches.manager: Invalid value: \"a b\": Invalid path (regex used for validation is "
            "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')");
  EXPECT_EQ(LineCol(found[0]), "9:14");
}

constexpr std::string_view kEnvOnNode = R"(  - manager: kueue.x-k8s.io/m
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      env: [{name: A, value: "1"}]
)";

TEST(RuntimePatchRules, EnvOnReservedContainer) {
  // jobset_test.go TestValidate "runtimePatches contain envs for reserved container".
  EXPECT_EQ(Webhook(TrainJob(kEnvOnNode), Release(trainer::TrainerVersion::kV2_3)),
            std::vector<std::string>{
                "spec.runtimePatches: Invalid value: [{\"manager\":\"kueue.x-k8s.io/m\",\"trainingRuntimeSpec\":{"
                "\"template\":{\"spec\":{\"replicatedJobs\":[{\"name\":\"node\",\"template\":{\"spec\":{\"template\":{"
                "\"spec\":{\"containers\":[{\"name\":\"node\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}]}}}}}]}}}}]: "
                "must not have envs for the dataset-initializer, model-initializer, node containers"});
}

constexpr std::string_view kUnknownNames = R"(  - manager: kueue.x-k8s.io/m
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: workers
            template:
              spec:
                template:
                  spec:
                    nodeSelector: {pool: a}
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: trainer
                      volumeMounts: [{name: data, mountPath: /data}]
)";

TEST(RuntimePatchRules, UnknownNamesAgainstTheTemplateGiven) {
  // Against the unmerged template (what upstream's TestValidate hands the
  // plugin: "runtimePatches contain invalid replicated job / container")
  // both checks fire. The pipeline hands the webhook the merged template,
  // where v2.2 and v2.3 differ (pipeline_test: DefaultIsV23AndEachTargetMergesItsWay).
  std::vector<std::string> raw = Webhook(TrainJob(kUnknownNames), Release(trainer::TrainerVersion::kV2_3));
  ASSERT_EQ(raw.size(), 2u);
  EXPECT_NE(raw[0].find("must not have replicated job that doesn't exist"), std::string::npos);
  EXPECT_NE(raw[1].find("must not have container that doesn't exist in the runtime job node"), std::string::npos);
  // A merged template that holds both names passes.
  ValidateOptions merged = Release(trainer::TrainerVersion::kV2_3);
  const doc::Node spec = Yaml(R"(replicatedJobs:
- name: node
  template: {spec: {template: {spec: {containers: [{name: node}, {name: trainer}]}}}}
- name: workers
  template: {spec: {template: {spec: {containers: [{name: x}]}}}}
)");
  merged.merged_jobset_spec = &spec;
  EXPECT_TRUE(Webhook(TrainJob(kUnknownNames), merged).empty());
}

TEST(RuntimePatchRules, SeveralErrorsAggregate) {
  Diagnostics found = ValidateTrainJobWebhook(TrainJob("  - manager: a\n  - manager: b\n"), Yaml(kRuntime),
                                              Release(trainer::TrainerVersion::kV2_3));
  EXPECT_EQ(WebhookDenial(found),
            "admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: "
            "[spec.runtimePatches.manager: Invalid value: \"a\": must be a domain-prefixed path (such as "
            "\"acme.io/foo\"), spec.runtimePatches.manager: Invalid value: \"b\": must be a domain-prefixed path "
            "(such as \"acme.io/foo\")]");
}

doc::Node Stored(bool suspend, std::string_view selector) {
  return TrainJob("  - manager: kueue.x-k8s.io/m\n    trainingRuntimeSpec: {template: {spec: {replicatedJobs: "
                  "[{name: node, template: {spec: {template: {spec: {nodeSelector: {pool: " +
                      std::string(selector) + "}}}}}}]}}}\n",
                  "", suspend);
}

doc::Node Updated(bool suspend, std::string_view selector) {
  doc::Node job = Stored(false, selector);
  job.FindMutable("spec")->Set("suspend", doc::Node::Bool(suspend));
  return job;
}

TEST(RuntimePatchRules, UpdateNeedsSuspendPerRelease) {
  doc::Node old = Stored(false, "a");
  ValidateOptions options = Release(trainer::TrainerVersion::kV2_3);
  options.old = &old;
  // jobset_test.go "forbid changes to runtimePatches when trainJob is not suspended".
  EXPECT_EQ(Webhook(Updated(false, "b"), options),
            std::vector<std::string>{"spec.runtimePatches: Forbidden: RuntimePatches can only be modified when the "
                                     "TrainJob is suspended before or after the update"});
  EXPECT_TRUE(Webhook(Updated(false, "a"), options).empty());
  // "allow atomic update: modify runtimePatches and suspend trainJob in a single request".
  EXPECT_TRUE(Webhook(Updated(true, "b"), options).empty());
  // v2.2.0 wanted the new object suspended: an unsuspend with a change fails.
  doc::Node suspended_old = Stored(true, "a");
  ValidateOptions v220 = Release(trainer::TrainerVersion::kV2_2);
  v220.old = &suspended_old;
  EXPECT_EQ(Webhook(Updated(false, "b"), v220),
            std::vector<std::string>{
                "spec.runtimePatches: Forbidden: RuntimePatches can only be modified when the TrainJob is suspended"});
  ValidateOptions v23 = Release(trainer::TrainerVersion::kV2_3);
  v23.old = &suspended_old;
  EXPECT_TRUE(Webhook(Updated(false, "b"), v23).empty());
}

TEST(RuntimePatchRules, AHandWrittenTimeIsNoChange) {
  // trainer-runtimepatches.md §1.8: the mutating webhook puts the stored
  // time back on an unchanged entry before the validating webhook compares.
  doc::Node old = TrainJob("  - manager: kueue.x-k8s.io/m\n    time: '2025-06-01T10:00:00Z'\n");
  ValidateOptions options = Release(trainer::TrainerVersion::kV2_3);
  options.old = &old;
  EXPECT_TRUE(Webhook(TrainJob("  - manager: kueue.x-k8s.io/m\n    time: '2026-01-01T00:00:00Z'\n"), options).empty());
  // Reordering entries is a change (slices compare in order).
  doc::Node two = TrainJob("  - manager: a.io/m\n  - manager: b.io/m\n");
  options.old = &two;
  EXPECT_EQ(Webhook(TrainJob("  - manager: b.io/m\n  - manager: a.io/m\n"), options).size(), 1u);
}

TEST(RuntimePatchRules, UpdateRefusedWhileJobsAreActive) {
  doc::Node old = Stored(true, "a");
  doc::Node jobset = Yaml(R"(
status:
  replicatedJobsStatus:
  - {name: node, active: 2}
  - {name: launcher, active: 0}
  - {name: dataset-initializer, active: 1}
)");
  ValidateOptions options = Release(trainer::TrainerVersion::kV2_3);
  options.old = &old;
  options.existing_jobset = &jobset;
  // "forbid changes to runtimePatches when trainJob is suspended but has multiple active replicatedJobs".
  EXPECT_EQ(Webhook(Updated(true, "b"), options),
            (std::vector<std::string>{"spec.runtimePatches: Forbidden: RuntimePatches cannot be modified when the "
                                      "JobSet's ReplicatedJob node is still active",
                                      "spec.runtimePatches: Forbidden: RuntimePatches cannot be modified when the "
                                      "JobSet's ReplicatedJob dataset-initializer is still active"}));
}

TEST(RuntimePatchRules, V23WantsTheInitializerVolumeMount) {
  doc::Node runtime = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-distributed}
spec:
  template:
    spec:
      replicatedJobs:
      - name: dataset-initializer
        template:
          spec:
            template:
              spec:
                containers: [{name: dataset-initializer, image: x}]
)");
  doc::Node job = TrainJob("  - manager: kueue.x-k8s.io/m\n",
                           "  initializer: {dataset: {storageUri: 'hf://x'}}\n");
  EXPECT_EQ(Messages(ValidateTrainJobWebhook(job, runtime, Release(trainer::TrainerVersion::kV2_3))),
            std::vector<std::string>{
                "spec.runtimeRef: Invalid value: {\"name\":\"torch-distributed\",\"apiGroup\":\"trainer.kubeflow.org\","
                "\"kind\":\"ClusterTrainingRuntime\"}: must have volumeMount with name - initializer in container "
                "dataset-initializer of the dataset-initializer job"});
  EXPECT_TRUE(Messages(ValidateTrainJobWebhook(job, runtime, Release(trainer::TrainerVersion::kV2_2))).empty());
}

}  // namespace
}  // namespace tjr::validate
