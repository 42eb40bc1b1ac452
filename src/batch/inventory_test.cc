#include "batch/inventory.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"

namespace tjr::batch {
namespace {

const char kManifests[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: torch
  namespace: team-a
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: b
  namespace: team-a
spec:
  runtimeRef:
    name: torch
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: a
  namespace: team-a
spec:
  runtimeRef:
    name: torch
    kind: TrainingRuntime
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: c
spec:
  runtimeRef:
    name: torch
    kind: TrainingRuntime
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: d
spec:
  runtimeRef:
    name: torch
    apiGroup: example.com
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: other
)";

TEST(InventoryTest, IndexesTrainJobsRuntimesAndReferences) {
  testkit::TempDir dir;
  dir.Write("all.yaml", kManifests);
  source::ManifestSet set = source::LoadManifests({dir.Path("all.yaml")});
  ASSERT_TRUE(set.diagnostics.empty());
  std::vector<Entry> entries = Summarize(set);
  ASSERT_EQ(entries.size(), 6u);
  EXPECT_EQ(entries[0].key(), "ClusterTrainingRuntime/torch");
  EXPECT_EQ(entries[1].key(), "TrainingRuntime/team-a/torch");
  EXPECT_EQ(entries[2].line, 12u);
  EXPECT_EQ(entries[2].file, dir.Path("all.yaml"));

  Inventory inventory(std::move(entries));
  ASSERT_EQ(inventory.trainjobs().size(), 4u);
  std::vector<std::string> order;
  for (const Entry& job : inventory.trainjobs()) order.push_back(job.id() + " -> " + job.runtime_key);
  // File order, not sorted.
  EXPECT_EQ(order, (std::vector<std::string>{
                       "team-a/b -> ClusterTrainingRuntime/torch",
                       "team-a/a -> TrainingRuntime/team-a/torch",
                       "default/c -> TrainingRuntime/default/torch",
                       "default/d -> "}));  // another API group: no runtime of ours
  EXPECT_EQ(inventory.ReferencesTo("ClusterTrainingRuntime/torch"), std::vector<std::size_t>{0});
  EXPECT_EQ(inventory.ReferencesTo("TrainingRuntime/team-a/torch"), std::vector<std::size_t>{1});
  // Referenced although absent: it may appear.
  EXPECT_EQ(inventory.ReferencesTo("TrainingRuntime/default/torch"), std::vector<std::size_t>{2});
  EXPECT_TRUE(inventory.ReferencesTo("ClusterTrainingRuntime/none").empty());
  EXPECT_EQ(inventory.runtimes().size(), 2u);
}

}  // namespace
}  // namespace tjr::batch
