// The cluster's admission wired into Flyte renders: every PodTemplate of the
// inputs (with or without a task) and every rendered Pod, first with
// stand-in admissions (the plumbing), then with the real one through
// RenderRepository (what `check` and `render` report).
#include "app/flyte_admission.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "admission/releases.h"
#include "app/render_repository.h"
#include "doc/path.h"
#include "flyte/release.h"
#include "source/loader.h"
#include "source/memory_tree.h"

namespace tjr::app {
namespace {

constexpr std::string_view kTemplates = R"(apiVersion: v1
kind: PodTemplate
metadata: {name: gpu, namespace: flyte}
template:
  spec:
    containers:
    - {name: default, image: noop}
---
apiVersion: v1
kind: PodTemplate
metadata: {name: cpu, namespace: flyte}
template:
  spec:
    containers:
    - {name: default, image: noop}
)";

constexpr std::string_view kTask = R"(namespace: flyte
execution:
  generatedName: pod-abc-n0-0
id: {resourceType: TASK, project: p, domain: d, name: wf.t1, version: v1}
type: python-task
metadata: {pod_template_name: gpu}
config: {primary_container_name: primary}
k8sPod:
  podSpec:
    containers:
    - {name: primary, image: task:v1}
)";

source::ManifestSet Load(const source::MemoryTree& tree, const std::vector<std::string>& paths) {
  source::LoadOptions options;
  for (const source::ObjectType& type : flyte::FlyteObjectTypes()) options.types.push_back(type);
  flyte::AcceptFlyteTasks(&options);
  return source::LoadManifests(tree, paths, options);
}

Diagnostics Refusal(const doc::Node& at, const std::string& message) {
  Diagnostic error = MakeError(at.location(), "", message);
  error.rule = "rendered/test/refused";
  return {error};
}

bool Mentions(const Diagnostics& diagnostics, const std::string& text) {
  for (const Diagnostic& d : diagnostics) {
    if (d.ToString().find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(FlyteAdmission, EveryFlyteReleaseNamesAKubernetesRow) {
  for (const flyte::Release& release : flyte::Releases()) {
    EXPECT_NE(admission::KubernetesRulesOf(release.kubernetes_release), nullptr) << release.target;
    flyte::FlyteOptions options;
    options.version = release.version;
    WireFlyteAdmission(&options);
    EXPECT_TRUE(options.admit_pod_template) << release.target;
    EXPECT_TRUE(options.admit_pod) << release.target;
  }
}

TEST(FlyteAdmission, EveryPodTemplateIsAdmittedWithoutAnyTask) {
  source::MemoryTree tree({{"templates.yaml", std::string(kTemplates)}});
  flyte::FlyteOptions options;
  std::vector<std::string> admitted;
  options.admit_pod_template = [&](const doc::Node& pod_template) {
    admitted.push_back(doc::StringAtPath(pod_template, {"metadata", "name"}));
    return admitted.back() == "cpu" ? Refusal(pod_template, "cpu refused") : Diagnostics{};
  };
  flyte::FlyteOutcome outcome = flyte::RenderFlyte(Load(tree, {"templates.yaml"}), options);
  EXPECT_EQ(admitted, (std::vector<std::string>{"gpu", "cpu"}));
  EXPECT_TRUE(outcome.tasks.empty());
  EXPECT_TRUE(Mentions(outcome.diagnostics, "templates.yaml:9:1: error: cpu refused"));
}

TEST(FlyteAdmission, ARefusedPodTemplateDoesNotExistForTheTaskNamingIt) {
  source::MemoryTree tree({{"templates.yaml", std::string(kTemplates)}, {"task.yaml", std::string(kTask)}});
  flyte::FlyteOptions options;
  options.admit_pod_template = [](const doc::Node& pod_template) {
    return Refusal(pod_template, "refused");
  };
  flyte::FlyteOutcome outcome = flyte::RenderFlyte(Load(tree, {"task.yaml", "templates.yaml"}), options);
  ASSERT_EQ(outcome.tasks.size(), 1u);
  EXPECT_TRUE(outcome.tasks[0].objects.empty());
  EXPECT_TRUE(Mentions(outcome.tasks[0].diagnostics, "PodTemplate 'gpu' does not exist"));
  EXPECT_EQ(outcome.diagnostics.size(), 2u);
}

TEST(FlyteAdmission, ARefusedPodRendersNothingAndFallsBackToTheTask) {
  source::MemoryTree tree({{"templates.yaml", std::string(kTemplates)}, {"task.yaml", std::string(kTask)}});
  flyte::FlyteOptions options;
  std::string pod_name;
  options.admit_pod = [&](const doc::Node& pod, const doc::Node& task) {
    pod_name = doc::StringAtPath(pod, {"metadata", "name"});
    return Refusal(task, "pod refused");
  };
  flyte::FlyteOutcome outcome = flyte::RenderFlyte(Load(tree, {"task.yaml", "templates.yaml"}), options);
  ASSERT_EQ(outcome.tasks.size(), 1u);
  EXPECT_EQ(pod_name, "pod-abc-n0-0");
  EXPECT_TRUE(outcome.tasks[0].objects.empty());
  EXPECT_TRUE(Mentions(outcome.tasks[0].diagnostics, "task.yaml:1:1: error: pod refused"));
}

// A refusal points at the line that wrote the value: the task's, or the
// PodTemplate's that the task's container merged with.
TEST(FlyteAdmission, ThePodsValuesKeepTheLinesThatWroteThem) {
  source::MemoryTree tree({{"templates.yaml", R"(apiVersion: v1
kind: PodTemplate
metadata: {name: gpu, namespace: flyte}
template:
  spec:
    containers:
    - name: default
      image: noop
      workingDir: /from/template
)"},
                           {"task.yaml", std::string(kTask)}});
  flyte::FlyteOptions options;
  std::string image_at, working_dir_at;
  options.admit_pod = [&](const doc::Node& pod, const doc::Node&) {
    const doc::Node* container = doc::FindPath(&pod, {"spec", "containers"});
    if (container != nullptr && container->is_sequence() && !container->items().empty()) {
      const doc::Node& primary = container->items().front();
      if (const doc::Node* image = primary.Find("image")) image_at = image->location().ToString();
      if (const doc::Node* dir = primary.Find("workingDir")) working_dir_at = dir->location().ToString();
    }
    return Diagnostics{};
  };
  flyte::FlyteOutcome outcome = flyte::RenderFlyte(Load(tree, {"task.yaml", "templates.yaml"}), options);
  ASSERT_EQ(outcome.tasks.size(), 1u);
  EXPECT_EQ(image_at, "task.yaml:11:30");
  EXPECT_EQ(working_dir_at, "templates.yaml:9:19");
}

TEST(FlyteAdmission, AnAdmittedPodRenders) {
  source::MemoryTree tree({{"templates.yaml", std::string(kTemplates)}, {"task.yaml", std::string(kTask)}});
  flyte::FlyteOptions options;
  WireFlyteAdmission(&options);
  flyte::FlyteOutcome outcome = flyte::RenderFlyte(Load(tree, {"task.yaml", "templates.yaml"}), options);
  ASSERT_EQ(outcome.tasks.size(), 1u);
  EXPECT_EQ(outcome.tasks[0].objects.size(), 1u);
  EXPECT_FALSE(outcome.tasks[0].has_errors());
  EXPECT_TRUE(outcome.diagnostics.empty());
}

// Through the use case `check` and `render` run.
class FlyteAdmissionRepository : public ::testing::Test {
 protected:
  class Sink final : public RenderSink {
   public:
    void Data(std::string_view bytes) override { data.append(bytes); }
    void Problem(const Diagnostic& problem) override { problems.push_back(problem.ToString()); }
    void Note(std::string_view) override {}
    std::string data;
    std::vector<std::string> problems;
  };

  // The findings as the reports print them, one per line: `location: [rule] message`.
  // `objects`: kStream as `render` runs it, kNowhere as `check` does.
  std::string Run(std::map<std::string, std::string> files, ObjectsTo objects = ObjectsTo::kStream,
                  bool admission = true) {
    source::MemoryTree tree(std::move(files));
    RenderRequest request;
    request.source.tree = &tree;
    request.source.paths = {"input"};
    request.objects = objects;
    request.threads = 1;
    request.admission = admission;
    Findings findings;
    RenderRepository(request, findings, sink_);
    has_errors_ = findings.has_errors();
    std::string out;
    for (const report::Finding& f : findings.findings()) {
      out += f.diagnostic.location.ToString() + ": " + f.diagnostic.message + "\n";
    }
    return out;
  }

  Sink sink_;
  bool has_errors_ = false;
};

TEST_F(FlyteAdmissionRepository, APodTemplateWithoutImageIsAnErrorWithNoTask) {
  std::string findings = Run({{"input/templates.yaml", R"(apiVersion: v1
kind: PodTemplate
metadata: {name: no-image, namespace: flyte}
template:
  spec:
    containers:
    - name: default
)"}});
  EXPECT_NE(findings.find("input/templates.yaml:7:7: [rendered/podtemplate/image] PodTemplate flyte/no-image: "
                          "template.spec.containers[0].image: Required value"),
            std::string::npos)
      << findings;
}

TEST_F(FlyteAdmissionRepository, CheckReportsWhatRenderReports) {
  const std::map<std::string, std::string> files = {{"input/templates.yaml", R"(apiVersion: v1
kind: PodTemplate
metadata: {name: dup, namespace: flyte}
template:
  spec:
    containers:
    - {name: default, image: a}
    - {name: default, image: b}
)"}};
  const std::string rendered = Run(files, ObjectsTo::kStream);
  EXPECT_TRUE(has_errors_);
  EXPECT_EQ(Run(files, ObjectsTo::kNowhere), rendered);
  EXPECT_TRUE(has_errors_);
  EXPECT_NE(rendered.find("[rendered/podtemplate/container-name] PodTemplate flyte/dup: "
                          "template.spec.containers[1].name: Duplicate value: \"default\""),
            std::string::npos)
      << rendered;
}

TEST_F(FlyteAdmissionRepository, NoAdmissionLeavesTheChecksOut) {
  const std::string findings = Run({{"input/templates.yaml", R"(apiVersion: v1
kind: PodTemplate
metadata: {name: dup, namespace: flyte}
template:
  spec:
    containers:
    - {name: default, image: a}
    - {name: default, image: a}
)"}},
                                   ObjectsTo::kNowhere, /*admission=*/false);
  EXPECT_EQ(findings, "");
  EXPECT_FALSE(has_errors_);
}

TEST_F(FlyteAdmissionRepository, ATaskPodWithAnEnvVarOfValueAndValueFromRendersNothing) {
  std::string findings = Run({{"input/task.yaml", R"(namespace: flyte
execution:
  generatedName: pod-abc-n0-0
id: {resourceType: TASK, project: p, domain: d, name: wf.t1, version: v1}
type: sidecar
config: {primary_container_name: primary}
k8sPod:
  podSpec:
    containers:
    - name: primary
      image: task:v1
      env:
      - name: TOKEN
        value: x
        valueFrom: {secretKeyRef: {name: s, key: k}}
)"}});
  EXPECT_TRUE(sink_.data.empty()) << sink_.data;
  EXPECT_NE(findings.find("input/task.yaml:14:16: [rendered/pod/env] Pod flyte/pod-abc-n0-0: "
                          "spec.containers[0].env[0].valueFrom: Invalid value: \"\": "
                          "may not be specified when `value` is not empty"),
            std::string::npos)
      << findings;
}

TEST_F(FlyteAdmissionRepository, ARefusedPodTemplateIsMissingForItsTask) {
  std::string findings = Run({{"input/templates.yaml", R"(apiVersion: v1
kind: PodTemplate
metadata: {name: gpu, namespace: flyte}
template:
  spec:
    containers:
    - name: default
      image: noop
      env:
      - name: TOKEN
        value: x
        valueFrom: {secretKeyRef: {name: s, key: k}}
)"},
                              {"input/task.yaml", std::string(kTask)}});
  EXPECT_TRUE(sink_.data.empty()) << sink_.data;
  EXPECT_NE(findings.find("input/templates.yaml:11:16: [rendered/podtemplate/env] PodTemplate flyte/gpu: "
                          "template.spec.containers[0].env[0].valueFrom: Invalid value: "
                          "\"\": may not be specified when `value` is not empty"),
            std::string::npos)
      << findings;
  EXPECT_NE(findings.find("input/task.yaml:1:1: PodTemplate 'gpu' does not exist"), std::string::npos) << findings;
}

}  // namespace
}  // namespace tjr::app
