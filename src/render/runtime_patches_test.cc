// runtimePatches merges of Trainer v2.2.0 and v2.3.0 (runtimepatches spec
// §2.3) and the version differences of the renderer (§5).
#include "doc/path.h"
#include "render/runtime_patches.h"

#include <gtest/gtest.h>

#include "render/render_test_util.h"

namespace tjr::render {
namespace {

using testing::ExpectValue;
using testing::ToYaml;
using testing::Yaml;

constexpr std::string_view kSpec = R"(
replicatedJobs:
- name: init
  template:
    spec:
      template:
        spec:
          containers: [{name: init, image: init-img}]
- name: node
  template:
    metadata:
      labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
    spec:
      template:
        spec:
          nodeSelector: {a: "1"}
          containers:
          - name: node
            image: node-img
            env: [{name: A, value: a}, {name: B, value: b}]
)";

doc::Node TrainJob(std::string_view patches) {
  return Yaml(std::string("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\n"
                          "spec:\n  runtimeRef: {name: r}\n  runtimePatches:\n") +
              std::string(patches));
}

std::vector<std::string> JobNames(const doc::Node& spec) {
  std::vector<std::string> names;
  for (const doc::Node& job : doc::FindPath(spec, {"replicatedJobs"})->items()) names.push_back(doc::StringAtPath(job, {"name"}));
  return names;
}

constexpr std::string_view kUnknownJob = R"(  - manager: acme.io/a
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: extra
            template:
              spec:
                template:
                  spec:
                    nodeSelector: {x: "y"}
)";

TEST(RuntimePatches, WholeSpecAddsAnUnknownJobAndSortsItFirst) {
  // §2.3: merged by name and added; SMP puts a patch-only item before the
  // original ones, and the stable re-sort (unknown name = index 0, like
  // `init`) keeps it there.
  Result<doc::Node> merged = MergeRuntimePatchesWholeSpec(TrainJob(kUnknownJob), Yaml(kSpec), trainer::TrainerVersion::kV2_3);
  ASSERT_TRUE(merged.ok()) << merged.error().ToString();
  EXPECT_EQ(JobNames(*merged), (std::vector<std::string>{"extra", "init", "node"})) << ToYaml(*merged);
}

TEST(RuntimePatches, PerJobSkipsAnUnknownJob) {
  Result<doc::Node> merged = MergeRuntimePatchesPerJob(TrainJob(kUnknownJob), Yaml(kSpec), trainer::TrainerVersion::kV2_2);
  ASSERT_TRUE(merged.ok()) << merged.error().ToString();
  EXPECT_EQ(JobNames(*merged), (std::vector<std::string>{"init", "node"}));
  // Nothing patched: the runtime's spec as decoded, the same as without patches.
  Result<doc::Node> unpatched = MergeRuntimePatchesPerJob(Yaml("spec: {}"), Yaml(kSpec), trainer::TrainerVersion::kV2_2);
  ASSERT_TRUE(unpatched.ok());
  EXPECT_EQ(*merged, *unpatched);
}

constexpr std::string_view kTwoManagers = R"(  - manager: acme.io/a
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    terminationGracePeriodSeconds: 5
                    nodeSelector: {b: "2"}
                    containers: [{name: node, securityContext: {runAsUser: 1}}]
                    initContainers: [{name: warm, env: [{name: X, value: x}]}]
  - manager: acme.io/b
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    nodeSelector: {b: "3"}
)";

TEST(RuntimePatches, EntriesApplyInListOrderLaterWins) {
  for (trainer::TrainerVersion v : {trainer::TrainerVersion::kV2_2, trainer::TrainerVersion::kV2_3}) {
    Result<doc::Node> merged = MergeJobSetTemplate(TrainJob(kTwoManagers), Yaml(kSpec), v);
    ASSERT_TRUE(merged.ok()) << merged.error().ToString();
    const doc::Node& pod = *doc::FindPath(doc::FindPath(*merged, {"replicatedJobs"})->items()[1], {"template", "spec", "template", "spec"});
    ExpectValue(pod.Find("nodeSelector"), R"({a: "1", b: "3"})");
    ExpectValue(doc::FindPath(pod, {"containers"}), R"([{name: node, image: node-img, env: [{name: A, value: a}, {name: B, value: b}],
        resources: {}, securityContext: {runAsUser: 1}}])");
    ExpectValue(doc::FindPath(pod, {"initContainers"}), R"([{name: warm, env: [{name: X, value: x}], resources: {}}])");
    // terminationGracePeriodSeconds joined PodSpecPatch in v2.3.0.
    if (v == trainer::TrainerVersion::kV2_3) {
      ExpectValue(pod.Find("terminationGracePeriodSeconds"), "5");
    } else {
      EXPECT_EQ(pod.Find("terminationGracePeriodSeconds"), nullptr);
    }
  }
}



}  // namespace
}  // namespace tjr::render
