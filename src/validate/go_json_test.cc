// json.Marshal of Trainer v2.1.0 values: struct field order from
// trainjob_types.go, omitempty, sorted map keys, HTML-safe escapes, and
// (Go 1.24 omitzero on metav1.Time) no creationTimestamp.
#include "validate/go_json.h"

#include <gtest/gtest.h>

#include "validate/test_util.h"

namespace tjr::validate {
namespace {

using testing::Value;
using testing::Yaml;

constexpr trainer::TrainerVersion kV21 = trainer::TrainerVersion::kV2_1;

TEST(GoJson, RuntimeRefInStructOrderKeepingEmptyPointers) {
  doc::Node ref = Value("{kind: ClusterTrainingRuntime, apiGroup: '', name: x}");
  EXPECT_EQ(RuntimeRefJson(&ref, kV21), R"({"name":"x","apiGroup":"","kind":"ClusterTrainingRuntime"})");
  doc::Node unnamed = Value("{name: ''}");
  EXPECT_EQ(RuntimeRefJson(&unnamed, kV21), "{}");
}

TEST(GoJson, OverridesInGoFieldOrder) {
  doc::Node overrides = Yaml(R"(
- spec:
    imagePullSecrets: [{name: s}]
    containers:
    - volumeMounts: [{mountPath: /m, name: v}]
      env: [{value: x, name: A}]
      name: c
    nodeSelector: {b: "2", a: "1"}
    serviceAccountName: sa
  metadata:
    annotations: {k: v}
    labels: {x: "a<b&c>"}
  targetJobs: [{name: node}]
)");
  EXPECT_EQ(PodTemplateOverridesJson(overrides, kV21),
            R"([{"targetJobs":[{"name":"node"}],"metadata":{"labels":{"x":"a\u003cb\u0026c\u003e"},)"
            R"("annotations":{"k":"v"}},"spec":{"serviceAccountName":"sa","nodeSelector":{"a":"1","b":"2"},)"
            R"("containers":[{"name":"c","env":[{"name":"A","value":"x"}],"volumeMounts":[{"name":"v","mountPath":"/m"}]}],)"
            R"("imagePullSecrets":[{"name":"s"}]}}])");
}

TEST(GoJson, EmptyMetadataAndSpecStayAsObjects) {
  doc::Node overrides = Value("[{targetJobs: [{name: a}], metadata: {}, spec: {}}]");
  EXPECT_EQ(PodTemplateOverridesJson(overrides, kV21), R"([{"targetJobs":[{"name":"a"}],"metadata":{},"spec":{}}])");
}

TEST(GoJson, TolerationsVolumesAndQuantities) {
  doc::Node overrides = Yaml(R"(
- targetJobs: [{name: a}]
  spec:
    tolerations: [{operator: Exists, key: k}]
    volumes: [{name: v, emptyDir: {sizeLimit: 1024Mi}}]
)");
  EXPECT_EQ(PodTemplateOverridesJson(overrides, kV21),
            R"([{"targetJobs":[{"name":"a"}],"spec":{"tolerations":[{"key":"k","operator":"Exists"}],)"
            R"("volumes":[{"name":"v","emptyDir":{"sizeLimit":"1Gi"}}]}}])");
}

TEST(GoJson, ResourcesAndEnvAndIntOrString) {
  doc::Node resources = Value("{requests: {cpu: 1000m}, limits: {nvidia.com/gpu: 2, cpu: '2'}}");
  EXPECT_EQ(ResourcesJson(&resources, kV21), R"({"limits":{"cpu":"2","nvidia.com/gpu":"2"},"requests":{"cpu":"1"}})");
  EXPECT_EQ(ResourcesJson(nullptr, kV21), "null");
  EXPECT_EQ(EnvListJson(Value("[{name: A}, {valueFrom: {fieldRef: {fieldPath: x}}, name: B}]"), kV21),
            R"([{"name":"A"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"x"}}}])");
  EXPECT_EQ(IntOrStringJson(Value("3")), "3");
  EXPECT_EQ(IntOrStringJson(Value("a<")), R"("a\u003c")");
}

}  // namespace
}  // namespace tjr::validate
