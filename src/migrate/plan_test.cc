#include "migrate/plan.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::migrate {
namespace {

doc::Node Yaml(std::string_view text) {
  auto documents = yaml::ReadStream(text, "trainjob.yaml");
  EXPECT_TRUE(documents.ok());
  return documents.ok() ? documents->front() : doc::Node();
}

std::vector<std::string> Managers(const Plan& plan) {
  std::vector<std::string> managers;
  for (const PlannedPatch& patch : plan.patches) {
    std::string line = patch.manager + ":";
    for (const PlannedJob& job : patch.jobs) line += " " + job.name;
    managers.push_back(line);
  }
  return managers;
}

TEST(PlanTrainJob, OverridesOfDistinctJobsShareOnePatchAndARepeatedJobStartsTheNext) {
  Plan plan = PlanTrainJob(Yaml(R"(
spec:
  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec: {nodeSelector: {a: b}}
  - targetJobs: [{name: dataset-initializer}, {name: model-initializer}]
    spec: {nodeSelector: {a: b}}
  - targetJobs: [{name: node}]
    spec: {tolerations: []}
  - targetJobs: [{name: launcher}]
    metadata: {labels: {x: z}}
)"),
                           "example.com/m");
  EXPECT_TRUE(plan.errors.empty());
  EXPECT_EQ(Managers(plan), (std::vector<std::string>{
                                "example.com/m: node dataset-initializer model-initializer",
                                "example.com/m-2: node launcher"}));
  ASSERT_EQ(plan.runtime_patches.size(), 2u);
  const doc::Node& jobs = *plan.runtime_patches[0]
                               .Find("trainingRuntimeSpec")
                               ->Find("template")
                               ->Find("spec")
                               ->Find("replicatedJobs");
  EXPECT_EQ(jobs.size(), 3u);
  EXPECT_NE(jobs[0].Find("template")->Find("spec")->Find("template")->Find("spec")->Find("nodeSelector"),
            nullptr);
}

TEST(PlanTrainJob, LabelsAndAnnotationsBecomeJobSetMetadataOfTheFirstPatch) {
  Plan plan = PlanTrainJob(Yaml("spec:\n  labels: {team: a}\n  annotations: {}\n"), kDefaultManager);
  ASSERT_EQ(plan.patches.size(), 1u);
  EXPECT_TRUE(plan.patches[0].jobset_metadata);
  const doc::Node& metadata =
      *plan.runtime_patches[0].Find("trainingRuntimeSpec")->Find("template")->Find("metadata");
  EXPECT_NE(metadata.Find("labels"), nullptr);
  EXPECT_EQ(metadata.Find("annotations"), nullptr);
  EXPECT_EQ(plan.runtime_patches[0].Find("manager")->string_value(), kDefaultManager);
}

TEST(PlanTrainJob, FieldsWithoutAPlaceAreErrorsWithTheirLocationAndPath) {
  Plan plan = PlanTrainJob(Yaml(R"(spec:
  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      hostNetwork: true
      containers:
      - name: node
        image: x
        env: []
)"),
                           kDefaultManager);
  ASSERT_EQ(plan.errors.size(), 2u);
  EXPECT_EQ(plan.errors[0].ToString(),
            "trainjob.yaml:5:7: error: spec.podTemplateOverrides[0].spec.hostNetwork: cannot "
            "migrate: runtimePatches' PodSpecPatch has no such field");
  EXPECT_EQ(plan.errors[1].ToString(),
            "trainjob.yaml:8:9: error: spec.podTemplateOverrides[0].spec.containers[0].image: "
            "cannot migrate: runtimePatches' ContainerPatch has no such field");
  EXPECT_TRUE(plan.runtime_patches.is_null());
}

TEST(PlanTrainJob, NothingToDoWithoutV21Fields) {
  Plan plan = PlanTrainJob(Yaml("spec:\n  runtimeRef: {name: torch}\n"), kDefaultManager);
  EXPECT_FALSE(plan.has_v21_fields);
  EXPECT_TRUE(plan.patches.empty());
}

TEST(CheckManager, RequiresADomainPrefixedPath) {
  EXPECT_EQ(CheckManager("trainer.kubeflow.org/kubeflow-sdk"), "");
  EXPECT_NE(CheckManager("manager"), "");
  EXPECT_NE(CheckManager("Example.com/x"), "");
  EXPECT_NE(CheckManager("example.com/"), "");
  EXPECT_NE(CheckManager("example.com/a b"), "");
}

}  // namespace
}  // namespace tjr::migrate
