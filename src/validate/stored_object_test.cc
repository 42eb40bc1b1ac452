// Structural pruning as the API server applies it before it stores a TrainJob.
#include "validate/stored_object.h"

#include <gtest/gtest.h>

#include "doc/path.h"
#include "validate/test_util.h"

namespace tjr::validate {
namespace {

using testing::Yaml;

const CrdRules& Rules() {
  const CrdRules* rules = BuiltinCrdRules(trainer::TrainerVersion::kV2_3);
  EXPECT_NE(rules, nullptr);
  return *rules;
}

TEST(PrunedAsStored, KeysTheSchemaLacksAreGoneAtAnyDepth) {
  // A runtime patch's embedded metadata keeps name, namespace, labels,
  // annotations and finalizers only (controller-gen's embedded ObjectMeta).
  doc::Node trainjob = Yaml(R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: t}
spec:
  runtimeRef: {name: r}
  bogus: 1
  runtimePatches:
  - manager: example.com/m
    trainingRuntimeSpec:
      template:
        metadata: {generateName: g-, labels: {a: b}, uid: u}
        spec:
          replicatedJobs: [{name: node, template: {spec: {template: {spec: {containers: [
            {name: node, image: dropped, env: [{name: X, value: "1", Bogus: 2}]}]}}}}}]
status: {anything: kept}
)");
  doc::Node stored = PrunedAsStored(Rules(), trainjob);
  EXPECT_EQ(doc::FindPath(stored, {"spec", "bogus"}), nullptr);
  const doc::Node* metadata = doc::FindPath(stored, {"spec", "runtimePatches"})->items()[0].Find("trainingRuntimeSpec");
  metadata = doc::FindPath(*metadata, {"template", "metadata"});
  ASSERT_NE(metadata, nullptr);
  ASSERT_EQ(metadata->fields().size(), 1u);
  EXPECT_EQ(metadata->fields()[0].key, "labels");
  const doc::Node& container = doc::FindPath(stored, {"spec", "runtimePatches"})
                                   ->items()[0]
                                   .Find("trainingRuntimeSpec")
                                   ->Find("template")
                                   ->Find("spec")
                                   ->Find("replicatedJobs")
                                   ->items()[0]
                                   .Find("template")
                                   ->Find("spec")
                                   ->Find("template")
                                   ->Find("spec")
                                   ->Find("containers")
                                   ->items()[0];
  EXPECT_EQ(container.Find("image"), nullptr);
  EXPECT_EQ(container.Find("env")->items()[0].Find("Bogus"), nullptr);
  EXPECT_EQ(container.Find("env")->items()[0].Find("value")->string_value(), "1");
  // The root keeps apiVersion, kind, metadata and status (pruning.Prune
  // skips the meta fields at a resource's root; status is in the CRD).
  EXPECT_NE(stored.Find("status"), nullptr);
  EXPECT_NE(stored.Find("kind"), nullptr);
}

TEST(PrunedAsStored, UnknownTopLevelKeysAreGoneToo) {
  // apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go: the
  // root is pruned as any object, except for apiVersion, kind and metadata.
  doc::Node trainjob = Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\n"
                            "trainer: {numNodes: 2}\nspec: {runtimeRef: {name: r}}\nstatus: {}\n");
  doc::Node stored = PrunedAsStored(Rules(), trainjob);
  EXPECT_EQ(stored.Find("trainer"), nullptr);
  EXPECT_NE(stored.Find("spec"), nullptr);
  EXPECT_NE(stored.Find("status"), nullptr);
  EXPECT_NE(stored.Find("metadata"), nullptr);
}

TEST(PrunedAsStored, AnObjectWithNothingToPruneIsTheSameNode) {
  doc::Node trainjob = Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\n"
                            "spec: {runtimeRef: {name: r}, trainer: {numNodes: 2}}\n");
  EXPECT_TRUE(PrunedAsStored(Rules(), trainjob).SharesRepresentationWith(trainjob));
}

}  // namespace
}  // namespace tjr::validate
