#include "pipeline/for_apply.h"

#include <gtest/gtest.h>

#include "pipeline/test_util.h"

namespace tjr::pipeline {
namespace {

using testing::Manifests;
using testing::TrainJob;

constexpr char kMpiRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: mpi
spec:
  mlPolicy:
    numNodes: 1
    mpi:
      numProcPerNode: 1
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
                      image: mpi
)";

std::vector<TrainJobResult> RenderEach(const source::ManifestSet& manifests) {
  std::vector<TrainJobResult> results;
  RenderManifests(manifests, testing::V21Options(), [&](TrainJobResult&& r) { results.push_back(std::move(r)); });
  return results;
}

TEST(PrepareForApplyTest, DropsOwnerReferencesAndWarnsOfTheSecretNobodyCreates) {
  std::string job = TrainJob("a", "ns");
  job.replace(job.find("torch-distributed"), 17, "mpi");
  std::vector<TrainJobResult> results = RenderEach(Manifests(std::string(kMpiRuntime) + "---\n" + job));
  ASSERT_EQ(results.size(), 1u);
  TrainJobResult& result = results[0];
  ASSERT_EQ(result.objects.size(), 2u);  // the hostfile ConfigMap and the JobSet
  for (const doc::Node& object : result.objects) {
    ASSERT_NE(object.Find("metadata")->Find("ownerReferences"), nullptr);  // as the controller creates them
  }
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].severity, Severity::kNote);

  PrepareForApply(&result);
  for (const doc::Node& object : result.objects) {
    EXPECT_EQ(object.Find("metadata")->Find("ownerReferences"), nullptr);
    EXPECT_NE(object.Find("metadata")->Find("name"), nullptr);
  }
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(RuleId(result.diagnostics[0]), "secret-not-rendered");
  EXPECT_NE(result.diagnostics[0].message.find("Secret a-mpi-ssh-auth is not rendered"), std::string::npos);
  EXPECT_NE(result.diagnostics[0].message.find("the pods that mount it do not start"), std::string::npos);
}

TEST(PrepareForApplyTest, OtherNotesStayNotes) {
  std::vector<TrainJobResult> results =
      RenderEach(Manifests(std::string(testing::kTorchRuntime) + "---\n" + TrainJob("b", "ns")));
  ASSERT_EQ(results.size(), 1u);
  Diagnostic other = MakeError(Location{}, "", "something else");
  other.severity = Severity::kNote;
  results[0].diagnostics.push_back(other);
  PrepareForApply(&results[0]);
  for (const Diagnostic& d : results[0].diagnostics) EXPECT_EQ(d.severity, Severity::kNote) << d.ToString();
}

}  // namespace
}  // namespace tjr::pipeline
