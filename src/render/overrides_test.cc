// podTemplateOverrides merge (spec trainer-v2.1-podtemplateoverrides.md §2).
// Expected values follow the per-field strategic-merge semantics of §2.3 and
// the list-order rules of §2.4; document equality compares sequences in
// order and mappings by content.
#include "render/overrides.h"

#include <gtest/gtest.h>

#include "render/test_util.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
namespace {

using testing::KeyOrder;
using testing::ToYaml;
using testing::Value;
using testing::Yaml;

constexpr trainer::TrainerVersion kV21 = trainer::TrainerVersion::kV2_1;

// A runtime JobSetSpec with an initializer job and a trainer job.
constexpr std::string_view kSpec = R"(
replicatedJobs:
- name: dataset-initializer
  template:
    metadata:
      labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}
    spec:
      template:
        spec:
          initContainers:
          - name: init
            image: busybox
            env:
            - {name: INIT_ENV, value: runtime}
            - {name: DATASET_PATH, value: runtime}
          containers:
          - name: dataset-initializer
            image: di
            volumeMounts:
            - {name: initializer, mountPath: /workspace/dataset}
          volumes:
          - name: initializer
            persistentVolumeClaim: {claimName: initializer}
- name: node
  template:
    metadata:
      labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
    spec:
      template:
        metadata:
          labels: {a: runtime, keep: k}
        spec:
          serviceAccountName: runtime-sa
          nodeSelector: {zone: a, disk: ssd}
          tolerations:
          - {key: t1, operator: Exists}
          - {key: t2, operator: Exists}
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions: [{key: r, operator: In, values: [x]}]
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 1
                podAffinityTerm: {topologyKey: kubernetes.io/hostname}
          schedulingGates: [{name: g1}]
          imagePullSecrets: [{name: s1}]
          containers:
          - name: node
            image: trainer
            resources:
              requests: {cpu: 1000m, memory: 4096Mi}
            env:
            - {name: A, value: a}
            - {name: B, value: b}
            - {name: C, value: c}
            volumeMounts:
            - {name: initializer, mountPath: /workspace}
)";

const doc::Node& Job(const doc::Node& spec, std::size_t i) { return doc::FindPath(spec, {"replicatedJobs"})->items()[i]; }

const doc::Node& PodSpec(const doc::Node& spec, std::size_t i) {
  return *doc::FindPath(Job(spec, i), {"template", "spec", "template", "spec"});
}

doc::Node Merge(std::string_view overrides_yaml) {
  doc::Node trainjob = Yaml(std::string("spec:\n  podTemplateOverrides:\n") + std::string(overrides_yaml));
  Result<doc::Node> merged = MergePodTemplateOverrides(trainjob, Yaml(kSpec), kV21);
  EXPECT_TRUE(merged.ok()) << merged.error().ToString();
  return merged.ok() ? *merged : doc::Node();
}

void ExpectYaml(const doc::Node& actual, std::string_view expected_yaml) {
  doc::Node expected = Value(expected_yaml);
  EXPECT_EQ(actual, expected) << "actual:\n" << ToYaml(actual) << "expected:\n" << ToYaml(expected);
}

// Without overrides the result is the runtime's spec decoded once: two
// TrainJobs of one runtime share the decoded value.
TEST(MergePodTemplateOverrides, NoOverridesReturnsTypedSpecOnce) {
  doc::Node spec = Yaml(kSpec);
  Result<doc::Node> merged = MergePodTemplateOverrides(Yaml("spec: {}"), spec, kV21);
  ASSERT_TRUE(merged.ok()) << merged.error().ToString();
  Result<doc::Node> again = MergePodTemplateOverrides(Yaml("spec: {podTemplateOverrides: []}"), spec, kV21);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(merged->SharesRepresentationWith(*again));
  const doc::Node& container = doc::FindPath(PodSpec(*merged, 1), {"containers"})->items()[0];
  ExpectYaml(*container.Find("resources"), "requests: {cpu: '1', memory: 4Gi}");
}

// §2.4: O=[A,B], P=[A',C] => [A',C,B], the order the upstream integration
// test asserts for init-container env.
TEST(MergePodTemplateOverrides, InitContainerEnvOrder) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: dataset-initializer}]
    spec:
      initContainers:
      - name: init
        env:
        - {name: INIT_ENV, value: override_init}
        - {name: NEW_VALUE, value: from_overrides}
)");
  ExpectYaml(*doc::FindPath(PodSpec(merged, 0), {"initContainers"}), R"(
- name: init
  image: busybox
  env:
  - {name: INIT_ENV, value: override_init}
  - {name: NEW_VALUE, value: from_overrides}
  - {name: DATASET_PATH, value: runtime}
  resources: {}
)");
}

// §2.4: override-only volumes come before runtime-only ones; §2.3 same-name
// volumes are deep-merged (both sources).
TEST(MergePodTemplateOverrides, VolumesPrependedAndDeepMerged) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: dataset-initializer}]
    spec:
      volumes:
      - {name: vx, emptyDir: {}}
      - {name: vy, emptyDir: {}}
  - targetJobs: [{name: dataset-initializer}]
    spec:
      volumes:
      - {name: initializer, emptyDir: {sizeLimit: 1024Mi}}
)");
  ExpectYaml(*doc::FindPath(PodSpec(merged, 0), {"volumes"}), R"(
- {name: vx, emptyDir: {}}
- {name: vy, emptyDir: {}}
- name: initializer
  persistentVolumeClaim: {claimName: initializer}
  emptyDir: {sizeLimit: 1Gi}
)");
}

// §2.4: O=[A,B,C], P=[C',A'] => [B,C',A']; then sequential composition
// O=[B,C',A'], P2=[D,B'] => [D,... ] following the interleave rule.
TEST(MergePodTemplateOverrides, ContainerEnvOrderAndSequentialOverrides) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: node
        env:
        - {name: C, value: c2}
        - {name: A, value: a2}
)");
  ExpectYaml(*doc::FindPath(PodSpec(merged, 1), {"containers"})->items()[0].Find("env"), R"(
- {name: B, value: b}
- {name: C, value: c2}
- {name: A, value: a2}
)");

  // O=[A,B,C]; P1=[D] => [D,A,B,C]; P2=[E,B'] => [E,D,A,B',C]:
  // serverOnly [D,A,C], patch [E,B']; D is not in O2? it is: O2=[D,A,B,C].
  // Heads D vs E: E is not in O2, so E first; D vs B': idx(D)=0 < idx(B)=2 => D;
  // A vs B': 1 < 2 => A; C vs B': 3 > 2 => B'; then C.
  merged = Merge(R"(
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: node
        env: [{name: D, value: d}]
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: node
        env: [{name: E, value: e}, {name: B, value: b2}]
)");
  ExpectYaml(*doc::FindPath(PodSpec(merged, 1), {"containers"})->items()[0].Find("env"), R"(
- {name: E, value: e}
- {name: D, value: d}
- {name: A, value: a}
- {name: B, value: b2}
- {name: C, value: c}
)");
}

// §2.3: value + valueFrom on the same name coexist (deep merge).
TEST(MergePodTemplateOverrides, SameNameEnvIsDeepMerged) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: node
        env:
        - name: A
          valueFrom: {fieldRef: {fieldPath: metadata.name}}
)");
  ExpectYaml(doc::FindPath(PodSpec(merged, 1), {"containers"})->items()[0].Find("env")->items()[0], R"(
name: A
value: a
valueFrom: {fieldRef: {fieldPath: metadata.name}}
)");
}

// §2.3: volumeMounts merge by mountPath: same mountPath renames the mount,
// same name at another path adds a second mount (placed first, §2.4).
TEST(MergePodTemplateOverrides, VolumeMountsMergeByMountPath) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: node
        volumeMounts:
        - {name: other, mountPath: /workspace}
        - {name: initializer, mountPath: /data}
)");
  ExpectYaml(*doc::FindPath(PodSpec(merged, 1), {"containers"})->items()[0].Find("volumeMounts"), R"(
- {name: other, mountPath: /workspace}
- {name: initializer, mountPath: /data}
)");
}

// §2.3 table: serviceAccountName replaced, nodeSelector merged per key,
// affinity merged per sub-struct with term lists replaced, tolerations
// replaced, schedulingGates and imagePullSecrets merged by name (new ones
// first), pod labels/annotations merged per key.
TEST(MergePodTemplateOverrides, PodFieldsSemantics) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: node}]
    metadata:
      labels: {a: override, b: new}
      annotations: {note: x}
    spec:
      serviceAccountName: override-sa
      nodeSelector: {zone: b, gpu: "true"}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions: [{key: o, operator: In, values: [yy]}]
      tolerations:
      - {key: t3, operator: Exists, effect: NoSchedule}
      schedulingGates: [{name: g2}]
      imagePullSecrets: [{name: s2}]
)");
  const doc::Node& pod = *doc::FindPath(Job(merged, 1), {"template", "spec", "template"});
  ExpectYaml(*pod.Find("metadata"), "labels: {a: override, keep: k, b: new}\nannotations: {note: x}\n");
  const doc::Node& spec = *pod.Find("spec");
  EXPECT_EQ(doc::StringAtPath(spec, {"serviceAccountName"}), "override-sa");
  ExpectYaml(*spec.Find("nodeSelector"), "{zone: b, disk: ssd, gpu: 'true'}");
  ExpectYaml(*spec.Find("affinity"), R"(
nodeAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
    nodeSelectorTerms:
    - matchExpressions: [{key: o, operator: In, values: [yy]}]
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
  - weight: 1
    podAffinityTerm: {topologyKey: kubernetes.io/hostname}
)");
  ExpectYaml(*spec.Find("tolerations"), "[{key: t3, operator: Exists, effect: NoSchedule}]");
  ExpectYaml(*spec.Find("schedulingGates"), "[{name: g2}, {name: g1}]");
  ExpectYaml(*spec.Find("imagePullSecrets"), "[{name: s2}, {name: s1}]");
}

// §2.1/§2.3: an unknown container name adds a container holding only what
// ContainerOverride has (fields it lacks, like image, are pruned), placed
// before the runtime's containers.
TEST(MergePodTemplateOverrides, UnknownContainerIsPrependedWithOverrideFieldsOnly) {
  doc::Node merged = Merge(R"(
  - targetJobs: [{name: node}]
    spec:
      containers:
      - name: sidecar
        image: ignored
        command: [ignored]
        env: [{name: S, value: s}]
      unknownField: 1
)");
  const doc::Node& containers = *doc::FindPath(PodSpec(merged, 1), {"containers"});
  ASSERT_EQ(containers.size(), 2u);
  ExpectYaml(containers[0], "{name: sidecar, env: [{name: S, value: s}], resources: {}}");
  EXPECT_EQ(doc::StringAtPath(containers[1], {"name"}), "node");
}

// §2.2: only targeted jobs change (untouched ones are the shared decoded
// runtime jobs); duplicate target names are harmless; the targeted template
// comes back typed (canonical quantities, Go order).
TEST(MergePodTemplateOverrides, OnlyTargetedJobsChangeAndComeBackTyped) {
  doc::Node spec = Yaml(kSpec);
  doc::Node trainjob = Yaml(R"(
spec:
  podTemplateOverrides:
  - targetJobs: [{name: node}, {name: node}, {name: missing}]
    metadata: {labels: {x: why}}
)");
  Result<doc::Node> merged = MergePodTemplateOverrides(trainjob, spec, kV21);
  ASSERT_TRUE(merged.ok()) << merged.error().ToString();
  Result<doc::Node> untouched = MergePodTemplateOverrides(Yaml("spec: {}"), spec, kV21);
  ASSERT_TRUE(untouched.ok());
  EXPECT_TRUE(Job(*merged, 0).SharesRepresentationWith(Job(*untouched, 0)));
  const doc::Node& container = doc::FindPath(PodSpec(*merged, 1), {"containers"})->items()[0];
  ExpectYaml(*container.Find("resources"), "requests: {cpu: '1', memory: 4Gi}");
  std::string keys;
  for (const doc::Field& f : container.fields()) keys += f.key + ",";
  EXPECT_EQ(keys, "name,image,env,resources,volumeMounts,");
  EXPECT_EQ(doc::StringAtPath(*doc::FindPath(Job(*merged, 1), {"template", "spec", "template", "metadata", "labels"}), {"x"}), "why");
}

TEST(OverridePatch, ReducesToTypedOverrideFields) {
  Result<doc::Node> patch = OverridePatch(Yaml(R"(
targetJobs: [{name: node}]
metadata: {name: dropped, labels: {}, annotations: null}
spec:
  serviceAccountName: ""
  nodeSelector: {}
  affinity: {}
  volumes: []
  containers:
  - {name: c, resources: {limits: {cpu: 1}}, env: [{name: E, valueFrom: {fieldRef: {fieldPath: x}}}]}
)"), kV21);
  ASSERT_TRUE(patch.ok()) << patch.error().ToString();
  ExpectYaml(*patch, R"(
metadata: {labels: {}}
spec:
  serviceAccountName: ""
  affinity: {}
  containers:
  - {name: c, env: [{name: E, valueFrom: {fieldRef: {fieldPath: x}}}]}
)");
}

TEST(OverridePatch, TypeErrorsAreReported) {
  Result<doc::Node> patch = OverridePatch(Yaml("spec: {nodeSelector: {a: 1}}"), kV21);
  EXPECT_FALSE(patch.ok());
}

}  // namespace
}  // namespace tjr::render
