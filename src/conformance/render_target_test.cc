#include "conformance/render_target.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::conformance {
namespace {

InputFile File(std::string name, std::string_view yaml) {
  auto documents = yaml::ReadStream(yaml, name);
  EXPECT_TRUE(documents.ok());
  return InputFile{std::move(name), documents.ok() ? *documents : std::vector<doc::Node>{}, std::string(yaml)};
}

const char kRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: rt
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
)";

const char kTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: tj
spec:
  runtimeRef:
    name: rt
    kind: TrainingRuntime
)";

TEST(RenderTarget, RendersEveryInputFileAsOneRepository) {
  auto output = RunRenderTarget({File("input/runtime.yaml", kRuntime), File("input/tj.yaml", kTrainJob)},
                                {"--namespace", "team"});
  ASSERT_TRUE(output.ok());
  EXPECT_TRUE(output->diagnostics.empty());
  // The default target, trainer-v2.3, renders the runtime snapshot first.
  ASSERT_EQ(output->objects.size(), 2u);
  EXPECT_EQ(output->objects[0].Find("kind")->string_value(), "ConfigMap");
  EXPECT_EQ(output->objects[0].Find("metadata")->Find("name")->string_value(), "tj-runtime-snapshot");
  EXPECT_EQ(output->objects[1].Find("kind")->string_value(), "JobSet");
  EXPECT_EQ(output->objects[1].Find("metadata")->Find("namespace")->string_value(), "team");
}

TEST(RenderTarget, MissingRuntimeIsADiagnosticAtTheTrainJob) {
  auto output = RunRenderTarget({File("input/tj.yaml", kTrainJob)}, {});
  ASSERT_TRUE(output.ok());
  EXPECT_TRUE(output->objects.empty());
  ASSERT_EQ(output->diagnostics.size(), 1u);
  EXPECT_EQ(output->diagnostics[0].ToString(),
            "input/tj.yaml:6:3: error: spec.runtimeRef: Invalid value: "
            "{\"name\":\"rt\",\"apiGroup\":\"trainer.kubeflow.org\",\"kind\":\"TrainingRuntime\"}: "
            "TrainingRuntime.trainer.kubeflow.org \"rt\" not found: specified trainingRuntime "
            "must be created before the TrainJob is created");
}

TEST(RenderTarget, ParsesItsOptionsAndRefusesOthers) {
  auto parsed = ParseRenderCommand({"--target=trainer-v2.1", "--strict", "--namespace", "x"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->pipeline.strict);
  EXPECT_EQ(parsed->pipeline.default_namespace, "x");
  EXPECT_TRUE(parsed->namespace_given);
  auto unknown = ParseRenderCommand({"--typed"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().category, Category::kInput);
  EXPECT_FALSE(ParseRenderCommand({"--target"}).ok());
}

TEST(RenderTarget, PreviousFileMakesAnUpdateAndIsNotRendered) {
  std::string old_job(kTrainJob);
  std::string new_job(kTrainJob);
  new_job.replace(new_job.find("name: rt\n"), 9, "name: rt2\n");
  std::string second_runtime(kRuntime);
  second_runtime.replace(second_runtime.find("name: rt\n"), 9, "name: rt2\n");
  auto output = RunRenderTarget({File("input/runtime.yaml", kRuntime), File("input/runtime2.yaml", second_runtime),
                                 File("input/previous.yaml", old_job), File("input/tj.yaml", new_job)},
                                {"--previous", "previous.yaml"});
  ASSERT_TRUE(output.ok());
  EXPECT_TRUE(output->objects.empty());
  ASSERT_EQ(output->diagnostics.size(), 1u);
  // The default target's CRD (v2.3.0) says "field is immutable"; v2.1.0's
  // said "runtimeRef is immutable".
  EXPECT_EQ(output->diagnostics[0].message, "spec.runtimeRef: Invalid value: \"object\": field is immutable");

  // Without --previous both TrainJobs are creates, and they collide.
  auto creates = RunRenderTarget({File("input/runtime.yaml", kRuntime), File("input/previous.yaml", old_job),
                                  File("input/tj.yaml", kTrainJob)},
                                 {});
  ASSERT_TRUE(creates.ok());
  EXPECT_NE(creates->diagnostics.at(0).message.find("duplicate TrainJob"), std::string::npos);

  auto missing = RunRenderTarget({File("input/tj.yaml", kTrainJob)}, {"--previous", "nope.yaml"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().category, Category::kInput);
}

// A Flyte case: the task, its PodTemplate and propeller's config file, as
// `tjrender render input/ --flyte-config input/propeller.yaml` reads them.
const char kFlyteTask[] = R"(namespace: team
execution:
  platformResources: {}
  generatedName: pod-abc-n0-0
id: {resourceType: TASK, project: p, domain: development, name: wf.t1, version: v1}
type: python-task
config: {primary_container_name: primary}
k8sPod:
  podSpec:
    containers:
    - {name: primary, image: task:v1}
)";

const char kPodTemplate[] = R"(apiVersion: v1
kind: PodTemplate
metadata: {name: flyte-template, namespace: flyte}
template:
  spec:
    containers:
    - {name: default, image: noop, workingDir: /w}
)";

const char kPropellerConfig[] = R"(plugins:
  k8s:
    default-pod-template-name: flyte-template
    default-labels: {from: file}
)";

TEST(RenderTarget, FlyteTasksRenderThroughTheSameEntryPoint) {
  auto output = RunRenderTarget({File("input/task.yaml", kFlyteTask), File("input/templates.yaml", kPodTemplate),
                                 File("input/propeller.yaml", kPropellerConfig)},
                                {"--target", "flyte-v1.16", "--flyte-config", "propeller.yaml"});
  ASSERT_TRUE(output.ok());
  for (const Diagnostic& d : output->diagnostics) EXPECT_NE(d.severity, Severity::kError) << d.ToString();
  ASSERT_EQ(output->objects.size(), 1u);
  const doc::Node& pod = output->objects[0];
  EXPECT_EQ(pod.Find("kind")->string_value(), "Pod");
  // The config file's label and the default template's workingDir: both inputs were used.
  EXPECT_EQ(pod.Find("metadata")->Find("labels")->Find("from")->string_value(), "file");
  EXPECT_EQ(pod.Find("spec")->Find("containers")->items()[0].Find("workingDir")->string_value(), "/w");
}

TEST(RenderTarget, MissingFlyteConfigIsACommandError) {
  auto output = RunRenderTarget({File("input/task.yaml", kFlyteTask)}, {"--flyte-config", "propeller.yaml"});
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.error().message, "--flyte-config propeller.yaml: no such file in input/");
}

}  // namespace
}  // namespace tjr::conformance
