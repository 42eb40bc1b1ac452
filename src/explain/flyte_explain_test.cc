// The provenance of a Flyte task's Pod, from real renders of small
// manifest sets: a value of each layer, a chain where a higher layer
// replaces a lower one's value, and the template values Flyte drops.
#include "explain/flyte_explain.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "explain/chains.h"
#include "flyte/render.h"
#include "flyte/trace.h"
#include "source/loader.h"
#include "source/memory_tree.h"

namespace tjr::explain {
namespace {

constexpr std::string_view kTemplate = R"(apiVersion: v1
kind: PodTemplate
metadata: {name: base, namespace: flyte}
template:
  metadata:
    labels: {team: template-team, tier: gold}
  spec:
    initContainers:
    - {name: warmup, image: busybox}
    tolerations:
    - {key: dedicated, operator: Exists}
    containers:
    - name: default
      image: template:v0
      env:
      - {name: REGION, value: from-template}
      - {name: ONLY_TEMPLATE, value: t}
      resources:
        requests: {cpu: 300m, ephemeral-storage: 1Gi}
)";

constexpr std::string_view kConfig = R"(plugins:
  k8s:
    default-pod-template-name: base
    default-env-vars:
    - {AWS_REGION: us-east-1}
    default-annotations:
      owner: platform
    default-labels:
      team: config-team
task_resources:
  defaults: {cpu: 500m, memory: 1Gi}
  limits: {cpu: "2", memory: 2Gi}
)";

constexpr std::string_view kTask = R"(namespace: ml
execution:
  generatedName: pod-abc-n0-0
  overrides:
    containerImage: override:v2
    resources:
      limits:
      - {name: MEMORY, value: 1500Mi}
id: {resourceType: TASK, project: p, domain: d, name: wf.train, version: v1}
type: python-task
container:
  image: task:v1
  args: [pyflyte-execute, --inputs]
  env:
  - {key: REGION, value: from-task}
  resources:
    requests:
    - {name: CPU, value: "4"}
)";

struct Rendered {
  flyte::FlyteOutcome outcome;
  Explanation explanation;
  const ObjectExplanation* pod = nullptr;
};

flyte::FlyteOutcome Render(const std::map<std::string, std::string>& files, bool keep_traces) {
  source::MemoryTree tree(files);
  source::LoadOptions options;
  for (const source::ObjectType& type : flyte::FlyteObjectTypes()) options.types.push_back(type);
  flyte::AcceptFlyteTasks(&options);
  std::vector<std::string> paths;
  for (const auto& [path, text] : files) paths.push_back(path);
  flyte::FlyteOptions flyte_options;
  flyte_options.keep_traces = keep_traces;
  return flyte::RenderFlyte(source::LoadManifests(tree, paths, options), flyte_options);
}

Rendered Explain(const std::map<std::string, std::string>& files) {
  Rendered out;
  out.outcome = Render(files, true);
  EXPECT_TRUE(out.outcome.diagnostics.empty()) << out.outcome.diagnostics.front().ToString();
  EXPECT_EQ(out.outcome.tasks.size(), 1u);
  if (out.outcome.tasks.size() != 1 || out.outcome.tasks[0].trace == nullptr) return out;
  out.explanation = ExplainFlyteTask(*out.outcome.tasks[0].trace);
  if (out.explanation.objects.size() == 1) out.pod = &out.explanation.objects[0];
  return out;
}

// "kind:value@file:line" for each step of the field at `path`.
std::vector<std::string> Chain(const Rendered& rendered, std::string_view path) {
  if (rendered.pod == nullptr) return {"<no pod>"};
  const Field* field = rendered.pod->Find(path);
  if (field == nullptr) return {"<no field " + std::string(path) + ">"};
  std::vector<std::string> out;
  for (const Step& step : field->chain) {
    std::string text = LayerKindName(rendered.explanation.layers[step.layer].kind);
    if (step.action == Action::kDeleted) {
      text += ":deleted";
    } else if (step.value.is_scalar()) {
      text += ":" + step.value.source_text();
    }
    if (step.location.known()) text += "@" + *step.location.file + ":" + std::to_string(step.location.line);
    out.push_back(text);
  }
  return out;
}

std::string Detail(const Rendered& rendered, std::string_view path) {
  const Field* field = rendered.pod != nullptr ? rendered.pod->Find(path) : nullptr;
  return field == nullptr || field->chain.empty() ? "<none>" : field->chain.back().detail;
}

const std::map<std::string, std::string> kInputs = {
    {"template.yaml", std::string(kTemplate)}, {"config.yaml", std::string(kConfig)}, {"task.yaml", std::string(kTask)}};

// The task names its own PodTemplate, whose "primary" container is the
// role of the task's primary container "main".
constexpr std::string_view kPrimaryTemplate = R"(apiVersion: v1
kind: PodTemplate
metadata: {name: gpu, namespace: ml}
template:
  spec:
    nodeSelector: {accelerator: a100}
    containers:
    - name: primary
      image: gpu-base:v1
)";

constexpr std::string_view kPodTask = R"(namespace: ml
execution: {generatedName: pod-xyz-n0-0}
id: {resourceType: TASK, project: p, domain: d, name: wf.gpu, version: v1}
type: python-task
metadata: {pod_template_name: gpu}
config: {primary_container_name: main}
k8sPod:
  podSpec:
    containers:
    - {name: main, image: "task:v2"}
)";

const std::map<std::string, std::string> kPrimaryInputs = {{"gpu.yaml", std::string(kPrimaryTemplate)},
                                                           {"task.yaml", std::string(kPodTask)}};

constexpr char kMain[] = "spec.containers[name=pod-abc-n0-0]";

std::string In(std::string_view field) { return std::string(kMain) + std::string(field); }

TEST(FlyteExplain, SubjectTargetAndLayers) {
  Rendered r = Explain(kInputs);
  ASSERT_NE(r.pod, nullptr);
  EXPECT_EQ(r.explanation.subject, "task ml/wf.train");
  EXPECT_EQ(r.explanation.target, "flyte-v1.16");
  ASSERT_FALSE(r.explanation.layers.empty());
  EXPECT_EQ(r.explanation.layers.front().kind, LayerKind::kFlyteDefaultTemplate);
  EXPECT_EQ(r.explanation.layers.front().name, "default template flyte/base");
  EXPECT_EQ(r.explanation.layers.back().kind, LayerKind::kFlytePropeller);
}

TEST(FlyteExplain, EveryNodeOfThePodHasItsCurrentValueLast) {
  Rendered r = Explain(kInputs);
  ASSERT_NE(r.pod, nullptr);
  std::size_t nodes = 0;
  WalkFields(r.pod->object, [&](const std::string& path, const doc::Node& node, const std::string*, std::size_t) {
    ++nodes;
    const Field* field = r.pod->Find(path);
    ASSERT_NE(field, nullptr) << path;
    EXPECT_TRUE(field->present) << path;
    ASSERT_FALSE(field->chain.empty()) << path;
    EXPECT_EQ(field->chain.back().action, Action::kSet) << path;
    if (IsLeaf(node)) {
      EXPECT_EQ(field->chain.back().value, node) << path;
    }
  });
  std::size_t present = 0;
  for (const Field& field : r.pod->fields) present += field.present ? 1 : 0;
  EXPECT_EQ(present, nodes);
}

TEST(FlyteExplain, ADefaultTemplateValue) {
  Rendered r = Explain(kInputs);
  EXPECT_EQ(Chain(r, "spec.tolerations[key=dedicated].operator"),
            (std::vector<std::string>{"flyte-default-template:Exists@template.yaml:11"}));
  // A template env item the task does not repeat.
  EXPECT_EQ(Chain(r, In(".env[1].name")),
            (std::vector<std::string>{"flyte-default-template:ONLY_TEMPLATE@template.yaml:17"}));
}

TEST(FlyteExplain, APrimaryTemplateValue) {
  Rendered r = Explain(kPrimaryInputs);
  ASSERT_NE(r.pod, nullptr);
  EXPECT_EQ(r.explanation.layers.front().kind, LayerKind::kFlytePrimaryTemplate);
  EXPECT_EQ(r.explanation.layers.front().name, "pod template ml/gpu");
  EXPECT_EQ(Chain(r, "spec.nodeSelector.accelerator"),
            (std::vector<std::string>{"flyte-primary-template:a100@gpu.yaml:6"}));
}

TEST(FlyteExplain, ATaskValueReplacesTheTemplatesValue) {
  Rendered r = Explain(kPrimaryInputs);
  EXPECT_EQ(Chain(r, "spec.containers[name=main].image"),
            (std::vector<std::string>{"flyte-primary-template:gpu-base:v1@gpu.yaml:9",
                                      "flyte-task:task:v2@task.yaml:10"}));
  // The container name the task gave is the task's, not propeller's.
  EXPECT_EQ(Chain(r, "spec.containers[name=main].name"), (std::vector<std::string>{"flyte-task:main@task.yaml:10"}));
}

TEST(FlyteExplain, TemplateTaskAndFlyteAdminResourcesChainInOrder) {
  Rendered r = Explain(kInputs);
  EXPECT_EQ(Chain(r, In(".resources.requests.cpu")),
            (std::vector<std::string>{"flyte-default-template:300m@template.yaml:19", "flyte-task:4@task.yaml:18",
                                      "flyte-task-resources:2@config.yaml:12"}));
  EXPECT_EQ(Detail(r, In(".resources.requests.cpu")),
            "the platform limit (clamped) (flyteadmin's task_resources.limits)");
}

TEST(FlyteExplain, AFlyteAdminTaskResourcesDefault) {
  Rendered r = Explain(kInputs);
  EXPECT_EQ(Chain(r, In(".resources.requests.memory")),
            (std::vector<std::string>{"flyte-task-resources:1Gi@config.yaml:11"}));
  EXPECT_EQ(Detail(r, In(".resources.requests.memory")),
            "the platform default (flyteadmin's task_resources.defaults)");
}

TEST(FlyteExplain, PluginConfigValues) {
  Rendered r = Explain(kInputs);
  EXPECT_EQ(Chain(r, In(".env[3].value")), (std::vector<std::string>{"flyte-plugin-config:us-east-1@config.yaml:5"}));
  EXPECT_EQ(Detail(r, In(".env[3].value")), "default-env-vars");
  EXPECT_EQ(Chain(r, "metadata.annotations.owner"),
            (std::vector<std::string>{"flyte-plugin-config:platform@config.yaml:7"}));
  // default-labels lose to the template's label of the same key.
  EXPECT_EQ(Chain(r, "metadata.labels.team"),
            (std::vector<std::string>{"flyte-plugin-config:config-team@config.yaml:9",
                                      "flyte-default-template:template-team@template.yaml:6"}));
}

TEST(FlyteExplain, ExecutionOverrides) {
  Rendered r = Explain(kInputs);
  EXPECT_EQ(Chain(r, In(".image")),
            (std::vector<std::string>{"flyte-default-template:template:v0@template.yaml:14",
                                      "flyte-task:task:v1@task.yaml:12",
                                      "flyte-execution-overrides:override:v2@task.yaml:5"}));
  const std::vector<std::string> memory = Chain(r, In(".resources.limits.memory"));
  ASSERT_FALSE(memory.empty());
  EXPECT_EQ(memory.back(), "flyte-execution-overrides:1500Mi@task.yaml:7");
  EXPECT_EQ(Detail(r, In(".resources.limits.memory")), "the execution's resources override");
}

TEST(FlyteExplain, PropellersOwnValues) {
  Rendered r = Explain(kInputs);
  EXPECT_EQ(Chain(r, In(".terminationMessagePolicy")),
            (std::vector<std::string>{"flyte-propeller:FallbackToLogsOnError"}));
  EXPECT_EQ(Detail(r, In(".terminationMessagePolicy")), "terminationMessagePolicy set by the pod plugin");
  EXPECT_EQ(Chain(r, In(".name")), (std::vector<std::string>{"flyte-propeller:pod-abc-n0-0"}));
  EXPECT_EQ(Detail(r, In(".name")), "primary container name: the task execution's generated name");
  EXPECT_EQ(Chain(r, "spec.restartPolicy"), (std::vector<std::string>{"flyte-propeller:Never"}));
  EXPECT_EQ(Chain(r, "metadata.annotations.primary_container_name"),
            (std::vector<std::string>{"flyte-propeller:pod-abc-n0-0"}));
}

TEST(FlyteExplain, TemplateValuesFlyteDropsAreDeleted) {
  Rendered r = Explain(kInputs);
  ASSERT_NE(r.pod, nullptr);
  const Field* init = r.pod->Find("spec.initContainers");
  ASSERT_NE(init, nullptr);
  EXPECT_FALSE(init->present);
  EXPECT_EQ(Chain(r, "spec.initContainers"),
            (std::vector<std::string>{"flyte-default-template@template.yaml:9", "flyte-propeller:deleted"}));
  EXPECT_EQ(Detail(r, "spec.initContainers"), "the task has no init containers: the template's are dropped");
  const Field* role = r.pod->Find("spec.containers[name=default]");
  ASSERT_NE(role, nullptr);
  EXPECT_FALSE(role->present);
  // The template's env item keyed by name before the task's duplicate made
  // the list indexed is still in the Pod: no deletion for it.
  EXPECT_EQ(r.pod->Find(In(".env[name=REGION]")), nullptr);
}

TEST(FlyteExplain, WithoutTemplateOrConfigurationTheBuiltInsAreNamed) {
  Rendered r = Explain({{"task.yaml", std::string(kTask)}});
  ASSERT_NE(r.pod, nullptr);
  EXPECT_EQ(r.explanation.layers.front().kind, LayerKind::kFlyteTask);
  EXPECT_EQ(Chain(r, "metadata.annotations[cluster-autoscaler.kubernetes.io/safe-to-evict]"),
            (std::vector<std::string>{"flyte-propeller:false"}));
  EXPECT_EQ(Detail(r, "metadata.annotations[cluster-autoscaler.kubernetes.io/safe-to-evict]"),
            "the built-in default annotation (default-annotations unset)");
  // flyteadmin's built-in limit (cpu 2) clamps the task's 4.
  EXPECT_EQ(Chain(r, In(".resources.requests.cpu")),
            (std::vector<std::string>{"flyte-task:4@task.yaml:18", "flyte-task-resources:2"}));
  std::vector<std::string> names;
  for (const Layer& layer : r.explanation.layers) names.push_back(layer.name);
  EXPECT_EQ(names, (std::vector<std::string>{"task ml/wf.train", "flyteadmin task_resources (built-in)", "execution",
                                             "plugins.k8s (built-in)", "flytepropeller"}));
}

TEST(FlyteExplain, TracesAreKeptOnlyWhenAskedAndChangeNothing) {
  flyte::FlyteOutcome plain = Render(kInputs, false);
  flyte::FlyteOutcome traced = Render(kInputs, true);
  ASSERT_EQ(plain.tasks.size(), 1u);
  ASSERT_EQ(traced.tasks.size(), 1u);
  EXPECT_EQ(plain.tasks[0].trace, nullptr);
  ASSERT_NE(traced.tasks[0].trace, nullptr);
  EXPECT_EQ(plain.tasks[0].objects, traced.tasks[0].objects);
  EXPECT_EQ(traced.tasks[0].trace->compose.role, flyte::TemplateRole::kDefault);
  EXPECT_EQ(traced.tasks[0].trace->config_file, "config.yaml");
  ASSERT_EQ(traced.tasks[0].objects.size(), 1u);
  EXPECT_EQ(traced.tasks[0].trace->pod, traced.tasks[0].objects[0]);
}

}  // namespace
}  // namespace tjr::explain
