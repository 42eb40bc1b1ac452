// JobSet builder (spec §1.3 steps 1 and 3, §1.5.6, §1.8).
#include <gtest/gtest.h>

#include "doc/path.h"
#include "render/render_test_util.h"

namespace tjr::render {
namespace {

using namespace testing;  // NOLINT

constexpr std::string_view kRuntime = R"(
metadata: {name: rt, labels: {trainer.kubeflow.org/framework: torch}}
spec:
  template:
    metadata:
      labels: {a: runtime, b: runtime}
    spec:
      suspend: true
      replicatedJobs:
      - name: dataset-initializer
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}
          spec:
            template:
              spec:
                containers:
                - name: dataset-initializer
                  image: di
                  env: [{name: STORAGE_URI, value: old}, {name: KEEP, value: k}]
                  resources: {limits: {memory: 4096Mi}}
      - name: other
        replicas: 3
        template:
          spec:
            parallelism: 5
            template:
              spec:
                containers: [{name: c, image: other, unknownField: dropped}]
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                containers:
                - {name: node, image: old, command: [old], resources: {limits: {cpu: 1}, requests: {cpu: 1}}}
)";

constexpr std::string_view kTrainJob = R"(
metadata: {name: tj, namespace: ns}
spec:
  labels: {b: trainjob}
  suspend: false
  initializer:
    dataset:
      storageUri: hf://data
      env: [{name: TOKEN_PATH, value: /t}]
      secretRef: {name: hf-secret}
  trainer:
    image: new
    command: []
    args: [--x]
    resourcesPerNode: {requests: {cpu: 1000m}}
)";

TEST(JobSetBuilder, ObjectMetadata) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  ASSERT_EQ(r.objects.size(), 1u);
  ExpectValue(doc::FindPath(JobSet(r), {"metadata"}), R"(
    {name: tj, namespace: ns, labels: {a: runtime, b: trainjob},
     ownerReferences: [{apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, name: tj,
                        controller: true, blockOwnerDeletion: true}]})");
  EXPECT_EQ(KeyOrder(JobSet(r)).substr(0, 40), "kind,apiVersion,metadata,name,namespace,");
  // §1.5.6 step 6: the TrainJob's suspend replaces the runtime's.
  ExpectValue(doc::FindPath(JobSet(r), {"spec", "suspend"}), "false");
}

// §1.5.6 step 3: STORAGE_URI upserted in place, env appended, envFrom
// appended; replicas 1; quantities canonical (§1.3 step 3).
TEST(JobSetBuilder, Initializer) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  const doc::Node& c = Container(r, 0, 0);
  ExpectValue(c.Find("env"), "[{name: STORAGE_URI, value: hf://data}, {name: KEEP, value: k}, {name: TOKEN_PATH, value: /t}]");
  ExpectValue(c.Find("envFrom"), "[{secretRef: {name: hf-secret}}]");
  ExpectValue(c.Find("resources"), "{limits: {memory: 4Gi}}");
  ExpectValue(Job(r, 0).Find("replicas"), "1");
  EXPECT_EQ(KeyOrder(c), "name,image,envFrom,secretRef,name,env,name,value,name,value,name,value,resources,limits,memory,");
}

// §1.5.6 step 4: image/args replaced, an empty command clears the
// runtime's, resources replaced wholesale (runtime limits lost).
TEST(JobSetBuilder, Trainer) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  ExpectValue(&Container(r, 2, 0), "{name: node, image: new, args: [--x], resources: {requests: {cpu: '1'}}}");
  ExpectValue(Job(r, 2).Find("replicas"), "1");
  ExpectValue(doc::FindPath(Job(r, 2), {"template", "spec", "parallelism"}), "1");
}

// §1.5.6: other jobs keep their replicas; parallelism = completions =
// count always (5 from the template); unknown fields dropped, pod
// template metadata: {} and resources: {} present (§1.8).
TEST(JobSetBuilder, OtherJobsAndTypedForm) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  ExpectValue(Job(r, 1).Find("replicas"), "3");
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "parallelism"}), "5");
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "completions"}), "5");
  ExpectValue(&Container(r, 1, 0), "{name: c, image: other, resources: {}}");
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "template", "metadata"}), "{}");
  // ReplicatedJob field order: name, groupName, template, replicas, dependsOn.
  EXPECT_EQ(KeyOrder(Job(r, 1)).substr(0, 51), "name,template,metadata,spec,parallelism,completions");
  EXPECT_EQ(Job(r, 1).fields().back().key, "replicas");
}

}  // namespace
}  // namespace tjr::render
