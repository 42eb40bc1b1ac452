#include "pipeline/warnings.h"

#include <gtest/gtest.h>

#include "pipeline/pipeline.h"
#include "pipeline/test_util.h"

namespace tjr::pipeline {
namespace {

using testing::Lines;
using testing::Manifests;
using testing::V21Options;

// A runtime whose node job has a volume `data` (a PVC) mounted by its
// container, and an env var FROM_RUNTIME.
const char kRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch-distributed
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
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
                      image: pytorch
                      env:
                        - name: FROM_RUNTIME
                          value: "1"
                      volumeMounts:
                        - name: data
                          mountPath: /data
                  initContainers:
                    - name: fetch
                      image: busybox
                  volumes:
                    - name: data
                      persistentVolumeClaim:
                        claimName: data
)";

// Most inputs here are refused by design: each warning predicts the refusal
// that admission then reports on the rendered Job (rendered/job/image,
// volumes, volume-mounts, env). These tests check the warnings alone, so
// they render with admission off.
PipelineOptions WithoutAdmission(PipelineOptions options = V21Options()) {
  options.admission = false;
  return options;
}

// Renders one TrainJob whose overrides are `overrides` (YAML under
// spec.podTemplateOverrides[0].spec, indented 6 spaces).
PipelineResult RenderWithOverride(const std::string& overrides, const PipelineOptions& options = V21Options()) {
  std::string job = testing::TrainJob(
      "a", "ns", "  podTemplateOverrides:\n  - targetJobs:\n    - name: node\n    spec:\n" + overrides);
  return RenderManifests(Manifests(std::string(kRuntime) + "---\n" + job), options);
}

TEST(Warnings, NoneForAnOrdinaryOverride) {
  PipelineResult result = RenderWithOverride(
      "      volumes:\n      - name: extra\n        emptyDir: {}\n"
      "      containers:\n      - name: node\n        volumeMounts:\n"
      "        - name: extra\n          mountPath: /extra\n");
  EXPECT_EQ(Lines(result.diagnostics), "");
  EXPECT_EQ(result.objects.size(), 1u);
}

TEST(Warnings, OverrideContainerNotInTheTargetJob) {
  PipelineResult result = RenderWithOverride(
      "      containers:\n      - name: trainer\n        env:\n        - name: X\n          value: z\n"
      "      initContainers:\n      - name: warmup\n",
      WithoutAdmission());
  EXPECT_EQ(Lines(result.diagnostics),
            "repo.yaml:55:9: warning: [override-container-unknown] init container \"warmup\" is "
            "not in job \"node\" of the runtime (its init containers: \"fetch\"): the JobSet gets a "
            "new container with no image, which Kubernetes refuses when the Job is created (image: "
            "Required value)\n"
            "repo.yaml:50:9: warning: [override-container-unknown] container \"trainer\" is not "
            "in job \"node\" of the runtime (its containers: \"node\"): the JobSet gets a new "
            "container with no image, which Kubernetes refuses when the Job is created (image: "
            "Required value)\n");
  // A warning, not an error: the objects are rendered as the controller would.
  EXPECT_EQ(result.objects.size(), 1u);
}

TEST(Warnings, SameNameVolumeWithTwoSources) {
  PipelineResult result =
      RenderWithOverride("      volumes:\n      - name: data\n        emptyDir: {}\n", WithoutAdmission());
  EXPECT_EQ(Lines(result.diagnostics),
            "repo.yaml:50:9: warning: [volume-two-sources] volume \"data\" of job \"node\" ends "
            "up with 2 sources (emptyDir, persistentVolumeClaim): an override's volume is merged "
            "into the runtime's volume of the same name, not swapped for it; Kubernetes refuses "
            "the Job's pod template (may not specify more than 1 volume type)\n");
}

TEST(Warnings, EnvVarWithValueAndValueFrom) {
  PipelineResult result = RenderWithOverride(
      "      initContainers:\n      - name: fetch\n        env:\n        - name: FROM_RUNTIME\n"
      "          value: a\n          valueFrom:\n            fieldRef:\n"
      "              fieldPath: metadata.name\n",
      WithoutAdmission());
  EXPECT_EQ(Lines(result.diagnostics),
            "repo.yaml:52:11: warning: [env-value-and-valuefrom] env var \"FROM_RUNTIME\" of "
            "container \"fetch\" in job \"node\" has both value and valueFrom: same-name env vars "
            "are merged field by field; Kubernetes refuses the Job's pod template (valueFrom may "
            "not be specified when value is not empty)\n");
}

TEST(Warnings, EnvVarMergedFromRuntimeValueAndOverrideValueFrom) {
  // The override targets the trainer's own container, which the webhook
  // refuses for env; an init container's env merged across two overrides
  // shows the same merge: value from one, valueFrom from the other.
  std::string job = testing::TrainJob(
      "a", "ns",
      "  podTemplateOverrides:\n"
      "  - targetJobs:\n    - name: node\n    spec:\n      initContainers:\n      - name: fetch\n"
      "        env:\n        - name: V\n          value: a\n"
      "  - targetJobs:\n    - name: node\n    spec:\n      initContainers:\n      - name: fetch\n"
      "        env:\n        - name: V\n          valueFrom:\n            secretKeyRef:\n"
      "              name: s\n              key: k\n");
  PipelineResult result =
      RenderManifests(Manifests(std::string(kRuntime) + "---\n" + job), V21Options());
  std::string lines = Lines(result.diagnostics);
  EXPECT_NE(lines.find("repo.yaml:60:11: warning: [env-value-and-valuefrom] env var \"V\""),
            std::string::npos)
      << lines;
}

TEST(Warnings, VolumeMountWithoutVolume) {
  PipelineResult result = RenderWithOverride(
      "      initContainers:\n      - name: fetch\n        volumeMounts:\n"
      "        - name: cache\n          mountPath: /cache\n",
      WithoutAdmission());
  EXPECT_EQ(Lines(result.diagnostics),
            "repo.yaml:52:11: warning: [volume-mount-without-volume] volumeMount \"cache\" "
            "(mountPath \"/cache\") of container \"fetch\" in job \"node\" names no volume of the "
            "pod: Kubernetes refuses the Job's pod template (volumeMounts name: Not found)\n");
}

// kRuntime with `line` (a YAML line) inserted before its `anchor` line.
std::string RuntimeWith(std::string_view anchor, std::string_view line) {
  std::string runtime = kRuntime;
  runtime.insert(runtime.find(anchor), line);
  return runtime;
}

TEST(Warnings, VolumeMountWithoutVolumeInTheRuntimeIsLocatedThere) {
  // The mount is the runtime's: the finding points at it (line 27 of the
  // stream, in the runtime's document), not at the TrainJob.
  std::string runtime = RuntimeWith("                  initContainers:\n",
                                    "                        - name: cache\n"
                                    "                          mountPath: /cache\n");
  PipelineResult result =
      RenderManifests(Manifests(runtime + "---\n" + testing::TrainJob("a", "ns")), WithoutAdmission());
  EXPECT_EQ(Lines(result.diagnostics),
            "repo.yaml:29:27: warning: [volume-mount-without-volume] volumeMount \"cache\" "
            "(mountPath \"/cache\") of container \"node\" in job \"node\" names no volume of the "
            "pod: Kubernetes refuses the Job's pod template (volumeMounts name: Not found)\n");
}

TEST(Warnings, ContainerOfTheJobWithoutImage) {
  // The runtime's init container `fetch` has no image: its own rule, at the
  // override that names it, else at the runtime's container.
  std::string runtime = kRuntime;
  runtime.erase(runtime.find("                      image: busybox\n"),
                std::string_view("                      image: busybox\n").size());
  const std::string message =
      "warning: [container-image-missing] init container \"fetch\" of job \"node\" has no image after "
      "the merge: the runtime's container has none and nothing in the TrainJob sets one, so Kubernetes "
      "refuses the Job's pod template when the Job is created (image: Required value)\n";
  PipelineResult plain =
      RenderManifests(Manifests(runtime + "---\n" + testing::TrainJob("a", "ns")), WithoutAdmission());
  EXPECT_EQ(Lines(plain.diagnostics), "repo.yaml:30:23: " + message);
  EXPECT_EQ(RuleId(plain.diagnostics[0]), "container-image-missing");
  std::string job = testing::TrainJob(
      "a", "ns",
      "  podTemplateOverrides:\n  - targetJobs:\n    - name: node\n    spec:\n"
      "      initContainers:\n      - name: fetch\n        env:\n        - name: X\n          value: z\n");
  PipelineResult named = RenderManifests(Manifests(runtime + "---\n" + job), WithoutAdmission());
  EXPECT_EQ(Lines(named.diagnostics), "repo.yaml:49:9: " + message);
}

TEST(Warnings, NumNodesZero) {
  // The TrainJob's numNodes becomes the trainer job's parallelism and
  // completions (jobset.go SyncParallelCount).
  for (std::string_view target : {"trainer-v2.1", "trainer-v2.3"}) {
    PipelineOptions options;
    options.target = target;
    PipelineResult zero = RenderManifests(
        Manifests(std::string(kRuntime) + "---\n" + testing::TrainJob("a", "ns", "  trainer:\n    numNodes: 0\n")),
        options);
    EXPECT_EQ(Lines(zero.diagnostics),
              "repo.yaml:46:15: warning: [num-nodes-zero] spec.trainer.numNodes is 0: job \"node\" gets parallelism 0 "
              "and completions 0, so its Jobs start no pods and the training never runs\n")
        << target;
    EXPECT_EQ(RuleId(zero.diagnostics.at(0)), "num-nodes-zero");
  }
  // A runtime's numNodes of 0 is raised to 1 (runtime.go NewInfo: max(count, 1)).
  std::string runtime = kRuntime;
  runtime.replace(runtime.find("numNodes: 1"), 11, "numNodes: 0");
  PipelineResult from_runtime =
      RenderManifests(Manifests(runtime + "---\n" + testing::TrainJob("a", "ns")), V21Options());
  EXPECT_EQ(Lines(from_runtime.diagnostics), "");
}

TEST(Warnings, EmptyValueWithValueFromIsFine) {
  // TrainJob env conversion writes value: "" beside valueFrom; Kubernetes
  // accepts an empty value.
  std::string job = testing::TrainJob(
      "a", "ns",
      "  trainer:\n    env:\n    - name: S\n      valueFrom:\n        secretKeyRef:\n"
      "          name: s\n          key: k\n");
  PipelineResult result =
      RenderManifests(Manifests(std::string(kRuntime) + "---\n" + job), V21Options());
  EXPECT_EQ(Lines(result.diagnostics), "");
}

}  // namespace
}  // namespace tjr::pipeline

namespace tjr::pipeline {
namespace {

TEST(Warnings, RuntimePatchesEntriesAreLocatedToo) {
  // Under trainer-v2.3 the pod template patches of runtimePatches play the
  // role of the overrides: an unknown container is added without an image.
  // (A container named `trainer` has its own warning, patch-container-trainer.)
  std::string job = testing::TrainJob("a", "ns",
                                      "  runtimePatches:\n"
                                      "  - manager: example.com/a\n"
                                      "    trainingRuntimeSpec:\n"
                                      "      template:\n"
                                      "        spec:\n"
                                      "          replicatedJobs:\n"
                                      "          - name: node\n"
                                      "            template:\n"
                                      "              spec:\n"
                                      "                template:\n"
                                      "                  spec:\n"
                                      "                    containers:\n"
                                      "                    - name: sidecar\n"
                                      "                      securityContext: {runAsNonRoot: true}\n");
  // (A container named `trainer` draws patch-container-trainer instead:
  // patch_warnings_test.cc.)
  PipelineResult result =
      RenderManifests(testing::Manifests(std::string(kRuntime) + "---\n" + job), WithoutAdmission(PipelineOptions{}));
  EXPECT_EQ(testing::Lines(result.diagnostics),
            "repo.yaml:57:23: warning: [override-container-unknown] container \"sidecar\" is not in job "
            "\"node\" of the runtime (its containers: \"node\"): the JobSet gets a new container with no "
            "image, which Kubernetes refuses when the Job is created (image: Required value)\n");
}

}  // namespace
}  // namespace tjr::pipeline
