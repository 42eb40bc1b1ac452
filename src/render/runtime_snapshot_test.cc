#include "render/runtime_snapshot.h"

#include <gtest/gtest.h>

#include "render/test_util.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::render {
namespace {

doc::Node Parse(std::string_view text) {
  auto docs = yaml::ReadStream(text, "in.yaml");
  EXPECT_TRUE(docs.ok()) << docs.error().ToString();
  return docs.ok() && !docs->empty() ? docs->front() : doc::Node();
}

// The ClusterTrainingRuntime of kubeflow/trainer v2.3.0
// pkg/runtime/core/snapshot_test.go:66-88 (hand-written there; here as the
// controller would write it: keys sorted by goyaml, compact sequences, and
// the `metadata: {}` and `resources: {}` Go's encoding always writes).
TEST(RuntimeSnapshot, SerializesTheRuntimeAsSigsYamlMarshal) {
  const doc::Node trainjob = Parse("metadata: {name: test-job, namespace: test-namespace, uid: uid-1}\n");
  const doc::Node runtime = Parse(R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: test-runtime
  namespace: ignored-for-cluster-scope
  uid: 9f0c
  resourceVersion: "12"
  generation: 1
  creationTimestamp: "2026-07-13T10:00:00Z"
  annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
spec:
  mlPolicy:
    numNodes: 2
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
                  image: pytorch/pytorch:tag
                  resources: {requests: {cpu: 1000m}}
)");
  auto text = SnapshotText(trainjob, runtime, trainer::TrainerVersion::kV2_3);
  ASSERT_TRUE(text.ok()) << text.error().ToString();
  EXPECT_EQ(*text, R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: test-runtime
spec:
  mlPolicy:
    numNodes: 2
    torch: {}
  template:
    metadata: {}
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels:
              trainer.kubeflow.org/trainjob-ancestor-step: trainer
          spec:
            template:
              metadata: {}
              spec:
                containers:
                - image: pytorch/pytorch:tag
                  name: node
                  resources:
                    requests:
                      cpu: "1"
)");
}

TEST(RuntimeSnapshot, IsAConfigMapOwnedByTheTrainJob) {
  const doc::Node trainjob = Parse("metadata: {name: tj, namespace: ns, uid: u-1}\n");
  const doc::Node runtime = Parse(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
      "spec: {mlPolicy: {numNodes: 1}}\n");
  auto configmap = RuntimeSnapshot(trainjob, runtime, trainer::TrainerVersion::kV2_3);
  ASSERT_TRUE(configmap.ok());
  EXPECT_EQ(yaml::Write(*configmap), R"(apiVersion: v1
data:
  runtime: |
    apiVersion: trainer.kubeflow.org/v1alpha1
    kind: TrainingRuntime
    metadata:
      name: rt
      namespace: ns
    spec:
      mlPolicy:
        numNodes: 1
kind: ConfigMap
metadata:
  name: tj-runtime-snapshot
  namespace: ns
  ownerReferences:
  - apiVersion: trainer.kubeflow.org/v1alpha1
    blockOwnerDeletion: true
    controller: true
    kind: TrainJob
    name: tj
    uid: u-1
)");
}

}  // namespace
}  // namespace tjr::render
