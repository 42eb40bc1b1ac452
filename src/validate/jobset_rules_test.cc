// The JobSet plugin's rules (reference §3.3), checked against the merged
// template as the real webhook does (§2.7).
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
  mlPolicy: {numNodes: 1, torch: {numProcPerNode: auto}}
  template:
    spec:
      replicatedJobs:
      - name: node
        replicas: 1
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

std::string TrainJob(std::string_view extra_spec) {
  return std::string(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: torch-distributed, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}
  suspend: false
  managedBy: trainer.kubeflow.org/trainjob-controller
)") + std::string(extra_spec);
}

Diagnostics Check(std::string_view extra_spec, const ValidateOptions& options = V21Options()) {
  const doc::Node runtime_node = Yaml(kRuntime);
  return ValidateTrainJob(Yaml(TrainJob(extra_spec)), &runtime_node, options);
}

constexpr std::string_view kRef =
    R"({"name":"torch-distributed","apiGroup":"trainer.kubeflow.org","kind":"ClusterTrainingRuntime"})";

TEST(JobSetPlugin, ValidTrainJobHasNoFindings) { EXPECT_TRUE(Check("").empty()); }

TEST(JobSetPlugin, DatasetInitializerJobMissing) {
  EXPECT_EQ(Messages(Check("  initializer: {dataset: {storageUri: 'hf://d'}}\n")),
            std::vector<std::string>{"spec.runtimeRef: Invalid value: " + std::string(kRef) +
                                     ": must have dataset-initializer job when trainJob is configured with input "
                                     "datasetConfig"});
}

TEST(JobSetPlugin, ModelInitializerJobMissing) {
  EXPECT_EQ(Messages(Check("  initializer: {model: {storageUri: 'hf://m'}}\n")),
            std::vector<std::string>{"spec.runtimeRef: Invalid value: " + std::string(kRef) +
                                     ": must have model-initializer job when trainJob is configured with input "
                                     "modelConfig"});
}

TEST(JobSetPlugin, InitializerContainerMissing) {
  std::string runtime(kRuntime);
  runtime += R"(      - name: dataset-initializer
        template:
          spec:
            template:
              spec:
                containers: [{name: other, image: x}]
      - name: model-initializer
        template:
          spec:
            template:
              spec:
                initContainers: [{name: model-initializer, image: x}]
                containers: [{name: other, image: x}]
)";
  const doc::Node trainjob = Yaml(TrainJob("  initializer: {dataset: {}, model: {}}\n"));
  // An initContainer of the right name counts (containers ∪ initContainers).
  const doc::Node runtime_node = Yaml(runtime);
  EXPECT_EQ(Messages(ValidateTrainJob(trainjob, &runtime_node, V21Options())),
            std::vector<std::string>{"spec.runtimeRef: Invalid value: " + std::string(kRef) +
                                     ": must have container with name - dataset-initializer in the dataset-initializer "
                                     "job"});
}

TEST(JobSetPlugin, V23InitializerContainersMustMountTheInitializerVolume) {
  // runtimepatches spec §5.8; jobset.go:112-170 at v2.3.0. A mount on an
  // init container of that name does not count; v2.1 has no such check.
  std::string runtime(kRuntime);
  runtime += R"(      - name: dataset-initializer
        template:
          spec:
            template:
              spec:
                initContainers: [{name: dataset-initializer, image: x, volumeMounts: [{name: initializer, mountPath: /w}]}]
                containers: [{name: dataset-initializer, image: x}]
      - name: model-initializer
        template:
          spec:
            template:
              spec:
                containers: [{name: model-initializer, image: x, volumeMounts: [{name: initializer, mountPath: /w}]}]
)";
  const doc::Node trainjob = Yaml(TrainJob("  initializer: {dataset: {}, model: {}}\n"));
  const doc::Node runtime_node = Yaml(runtime);
  ValidateOptions v23;
  v23.version = trainer::TrainerVersion::kV2_3;
  EXPECT_EQ(Messages(ValidateTrainJob(trainjob, &runtime_node, v23)),
            std::vector<std::string>{"spec.runtimeRef: Invalid value: " + std::string(kRef) +
                                     ": must have volumeMount with name - initializer in container "
                                     "dataset-initializer of the dataset-initializer job"});
  EXPECT_TRUE(ValidateTrainJob(trainjob, &runtime_node, V21Options()).empty());
}

TEST(JobSetPlugin, TargetJobMissingAlsoFlagsItsContainers) {
  const Diagnostics found = Check(R"(  podTemplateOverrides:
  - targetJobs: [{name: launcher}]
    spec:
      initContainers: [{name: init}]
      containers: [{name: node, env: [{name: A, value: x}]}]
)");
  const std::string value =
      R"([{"targetJobs":[{"name":"launcher"}],"spec":{"initContainers":[{"name":"init"}],)"
      R"("containers":[{"name":"node","env":[{"name":"A","value":"x"}]}]}}])";
  EXPECT_EQ(Messages(found),
            (std::vector<std::string>{
                "spec.podTemplateOverrides: Invalid value: " + value +
                    ": must not have targetJob that doesn't exist in the runtime job template",
                "spec.podTemplateOverrides: Invalid value: " + value +
                    ": must not have initContainer that doesn't exist in the runtime job launcher",
                "spec.podTemplateOverrides: Invalid value: " + value +
                    ": must not have container that doesn't exist in the runtime job launcher"}));
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].field_path, "spec.podTemplateOverrides");
  EXPECT_EQ(LineCol(found[0]), "10:18");  // the targetJobs entry
  EXPECT_EQ(LineCol(found[1]), "12:24");  // the initContainer
}

TEST(JobSetPlugin, ContainersAreCheckedAgainstTheTemplateGiven) {
  // The webhook looks the override's containers up in the template it is
  // handed. Against the runtime's own (upstream's TestValidate) a new
  // container is unknown; the pipeline hands it the merged one, where the
  // merge has added it (pipeline_test: TheWebhookValidatesTheMergedTemplate).
  const Diagnostics unmerged = Check(R"(  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      containers: [{name: sidecar}]
)");
  ASSERT_EQ(unmerged.size(), 1u);
  EXPECT_NE(unmerged[0].message.find("sidecar"), std::string::npos) << unmerged[0].message;
}

TEST(JobSetPlugin, EnvForReservedContainer) {
  const Diagnostics found = Check(R"(  podTemplateOverrides:
  - targetJobs: [{name: node}]
    metadata:
      labels: {team: a}
    spec:
      containers:
      - name: node
        env: [{name: A, value: x}]
)");
  EXPECT_EQ(Messages(found),
            std::vector<std::string>{
                R"(spec.podTemplateOverrides: Invalid value: [{"targetJobs":[{"name":"node"}],"metadata":{"labels":{"team":"a"}},)"
                R"("spec":{"containers":[{"name":"node","env":[{"name":"A","value":"x"}]}]}}]: must not have envs for the )"
                "dataset-initializer, model-initializer, node containers"});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(LineCol(found[0]), "16:14");
}

TEST(JobSetPlugin, DuplicateTargetJobsAreAllowed) {
  EXPECT_TRUE(Check(R"(  podTemplateOverrides:
  - targetJobs: [{name: node}, {name: node}]
    spec: {nodeSelector: {a: b}}
  - targetJobs: [{name: node}]
    spec: {nodeSelector: {a: c}}
)").empty());
}

constexpr std::string_view kOldOverrides = R"(  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec: {serviceAccountName: old}
)";
constexpr std::string_view kNewOverrides = R"(  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec: {serviceAccountName: new}
)";

TEST(JobSetPlugin, UpdateOfOverridesWhileRunningIsForbidden) {
  const doc::Node old = Yaml(TrainJob(kOldOverrides));
  ValidateOptions options = V21Options();
  options.old = &old;
  EXPECT_EQ(Messages(Check(kNewOverrides, options)),
            std::vector<std::string>{"spec.podTemplateOverrides: Forbidden: PodTemplateOverrides can only be modified "
                                     "when the TrainJob is suspended"});
  EXPECT_TRUE(Check(kOldOverrides, options).empty());
}

TEST(JobSetPlugin, UpdateWhileSuspendedChecksActiveReplicatedJobs) {
  std::string old_text = TrainJob(kOldOverrides);
  const doc::Node old = Yaml(old_text);
  std::string suspended = TrainJob(kNewOverrides);
  suspended.replace(suspended.find("suspend: false"), 14, "suspend: true");
  const doc::Node runtime = Yaml(kRuntime);
  ValidateOptions options = V21Options();
  options.old = &old;
  EXPECT_TRUE(ValidateTrainJob(Yaml(suspended), &runtime, options).empty());  // no JobSet

  const doc::Node jobset = Yaml(R"(
status:
  replicatedJobsStatus:
  - {name: init, active: 0}
  - {name: node, active: 2}
  - {name: other, active: 1}
)");
  options.existing_jobset = &jobset;
  EXPECT_EQ(Messages(ValidateTrainJob(Yaml(suspended), &runtime, options)),
            (std::vector<std::string>{
                "spec.podTemplateOverrides: Forbidden: PodTemplateOverrides cannot be modified when the JobSet's "
                "ReplicatedJob node is still active",
                "spec.podTemplateOverrides: Forbidden: PodTemplateOverrides cannot be modified when the JobSet's "
                "ReplicatedJob other is still active"}));
}

TEST(JobSetPlugin, DeprecatedClusterRuntimeWarns) {
  std::string runtime(kRuntime);
  runtime.replace(runtime.find("metadata: {name: torch-distributed}"), 35,
                  "metadata: {name: torch-distributed, labels: {trainer.kubeflow.org/support: deprecated}}");
  const doc::Node runtime_node = Yaml(runtime);
  const Diagnostics found = ValidateTrainJob(Yaml(TrainJob("")), &runtime_node);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  EXPECT_EQ(found[0].message,
            "Referenced ClusterTrainingRuntime \"torch-distributed\" is deprecated and will be removed in a future "
            "release of Kubeflow Trainer. See runtime deprecation policy: "
            "https://www.kubeflow.org/docs/components/trainer/operator-guides/runtime/#runtime-deprecation-policy");
  EXPECT_EQ(AggregateErrors(found), "");
}

TEST(JobSetPlugin, WebhookDenialText) {
  const Diagnostics found = Check("  initializer: {model: {}}\n");
  EXPECT_EQ(WebhookDenial(found),
            "admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: spec.runtimeRef: "
            "Invalid value: " +
                std::string(kRef) +
                ": must have model-initializer job when trainJob is configured with input modelConfig");
}

}  // namespace
}  // namespace tjr::validate
