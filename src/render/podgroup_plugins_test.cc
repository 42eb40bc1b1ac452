// CoScheduling and Volcano (spec §1.5.4, §1.5.5) with PlainML (§1.5.1).
#include <gtest/gtest.h>

#include "doc/path.h"
#include "render/render_test_util.h"

namespace tjr::render {
namespace {

using namespace testing;  // NOLINT

constexpr std::string_view kRuntime = R"(
metadata: {name: plain}
spec:
  mlPolicy: {numNodes: 2}
  podGroupPolicy:
    coscheduling: {scheduleTimeoutSeconds: 120}
    volcano: {networkTopology: {mode: hard, highestTierAllowed: 1}}
  template:
    metadata:
      annotations: {scheduling.volcano.sh/queue-name: runtime-q}
    spec:
      replicatedJobs:
      - name: dataset-initializer
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}
          spec:
            template:
              spec:
                priorityClassName: low
                containers:
                - {name: dataset-initializer, resources: {requests: {cpu: 1}}}
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              metadata: {labels: {app: x}}
              spec:
                priorityClassName: high
                containers:
                - {name: node, env: [{name: A, value: a}], resources: {requests: {cpu: 500m, memory: 1Gi}}}
)";

constexpr std::string_view kTrainJob = R"(
metadata: {name: tj, namespace: ns}
spec:
  annotations: {scheduling.volcano.sh/queue-name: tj-q}
  trainer:
    numNodes: 3
    env: [{name: B}]
    resourcesPerNode: {requests: {cpu: 8}}
)";

// minMember = 1 + 3; minResources from runtime requests (not
// resourcesPerNode): cpu 1 + 3×500m, memory 3×1Gi.
TEST(CoSchedulingPlugin, PodGroupAndPodLabel) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  ASSERT_EQ(r.objects.size(), 3u);
  EXPECT_EQ(doc::StringAtPath(r.objects[0], {"apiVersion"}), "scheduling.x-k8s.io/v1alpha1");
  ExpectValue(&r.objects[0], R"(
    {kind: PodGroup, apiVersion: scheduling.x-k8s.io/v1alpha1,
     metadata: {name: tj, namespace: ns, ownerReferences: [{apiVersion: trainer.kubeflow.org/v1alpha1,
       kind: TrainJob, name: tj, controller: true, blockOwnerDeletion: true}]},
     spec: {minMember: 4, minResources: {cpu: 2500m, memory: 3Gi}, scheduleTimeoutSeconds: 120}})");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "template", "metadata", "labels"}),
              "{scheduling.x-k8s.io/pod-group: tj}");
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "template", "metadata", "labels"}),
              "{app: x, scheduling.x-k8s.io/pod-group: tj}");
}

// Queue from TrainJob spec.annotations (wins over the runtime's),
// priorityClassName of the last job having one, networkTopology.
TEST(VolcanoPlugin, PodGroupAndPodAnnotation) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  ASSERT_EQ(r.objects.size(), 3u);
  ExpectValue(&r.objects[1], R"(
    {kind: PodGroup, apiVersion: scheduling.volcano.sh/v1beta1,
     metadata: {name: tj, namespace: ns, ownerReferences: [{apiVersion: trainer.kubeflow.org/v1alpha1,
       kind: TrainJob, name: tj, controller: true, blockOwnerDeletion: true}]},
     spec: {minMember: 4, queue: tj-q, priorityClassName: high, minResources: {cpu: 2500m, memory: 3Gi},
            networkTopology: {mode: hard, highestTierAllowed: 1}}})");
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "template", "metadata", "annotations"}),
              "{scheduling.k8s.io/group-name: tj}");
  ExpectValue(doc::FindPath(JobSet(r), {"metadata", "annotations"}), "{scheduling.volcano.sh/queue-name: tj-q}");
}

// §1.5.1 PlainML: numNodes from the TrainJob, trainer env converted and
// appended (value-less => value: "").
TEST(PlainMLPlugin, CountAndEnv) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "parallelism"}), "3");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "parallelism"}), "1");
  ExpectValue(Container(r, 1, 0).Find("env"), "[{name: A, value: a}, {name: B, value: ''}]");
  EXPECT_EQ(Container(r, 1, 0).Find("ports"), nullptr);
}

}  // namespace
}  // namespace tjr::render
