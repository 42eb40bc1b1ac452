// The JSON of []trainer.RuntimePatch that runtimePatches field errors carry
// (trainjob_types.go:293-496 at v2.3.0, json.Marshal).
#include "validate/runtime_patches_json.h"

#include <gtest/gtest.h>

#include "validate/test_util.h"

namespace tjr::validate {
namespace {

using testing::Value;

constexpr std::string_view kPatches = R"([{
  trainingRuntimeSpec: {template: {
    spec: {replicatedJobs: [{template: {
      spec: {template: {spec: {
        terminationGracePeriodSeconds: 5,
        nodeSelector: {z: "1", a: "2"},
        serviceAccountName: sa,
        volumes: [{emptyDir: {sizeLimit: 1024Mi}, name: d}],
        containers: [{securityContext: {runAsUser: 1}, name: node}]}}},
      metadata: {annotations: {x: w}}}, name: node}]},
    metadata: {labels: {b: "1", a: "2"}}}},
  time: "2026-01-01T00:00:00Z",
  manager: a.io/m}])";

TEST(RuntimePatchesJson, GoFieldOrderTypedValuesAndVersion) {
  const doc::Node patches = Value(kPatches);
  const std::string pod_v23 =
      "{\"serviceAccountName\":\"sa\",\"volumes\":[{\"name\":\"d\",\"emptyDir\":{\"sizeLimit\":\"1Gi\"}}],"
      "\"containers\":[{\"name\":\"node\",\"securityContext\":{\"runAsUser\":1}}],\"nodeSelector\":{\"a\":\"2\","
      "\"z\":\"1\"},\"terminationGracePeriodSeconds\":5}";
  const std::string prefix =
      "[{\"manager\":\"a.io/m\",\"time\":\"2026-01-01T00:00:00Z\",\"trainingRuntimeSpec\":{\"template\":{\"metadata\":"
      "{\"labels\":{\"a\":\"2\",\"b\":\"1\"}},\"spec\":{\"replicatedJobs\":[{\"name\":\"node\",\"template\":{"
      "\"metadata\":{\"annotations\":{\"x\":\"w\"}},\"spec\":{\"template\":{\"spec\":";
  const std::string suffix = "}}}}]}}}}]";
  EXPECT_EQ(RuntimePatchesJson(&patches, trainer::TrainerVersion::kV2_3), prefix + pod_v23 + suffix);
  // v2.2.0's PodSpecPatch has no terminationGracePeriodSeconds.
  std::string pod_v22 = pod_v23;
  pod_v22.erase(pod_v22.find(",\"terminationGracePeriodSeconds\":5"), 34);
  EXPECT_EQ(RuntimePatchesJson(&patches, trainer::TrainerVersion::kV2_2), prefix + pod_v22 + suffix);
}

TEST(RuntimePatchesJson, AbsentEmptyAndContentWithoutTime) {
  EXPECT_EQ(RuntimePatchesJson(nullptr, trainer::TrainerVersion::kV2_3), "null");
  const doc::Node empty = Value("[]");
  EXPECT_EQ(RuntimePatchesJson(&empty, trainer::TrainerVersion::kV2_3), "null");
  // Pointers to empty structs stay as {}.
  const doc::Node bare = Value("[{manager: a.io/m, trainingRuntimeSpec: {template: {}}}]");
  EXPECT_EQ(RuntimePatchesJson(&bare, trainer::TrainerVersion::kV2_3),
            "[{\"manager\":\"a.io/m\",\"trainingRuntimeSpec\":{\"template\":{}}}]");
  const doc::Node a = Value("{manager: a.io/m, time: '2026-01-01T00:00:00Z'}");
  const doc::Node b = Value("{manager: a.io/m}");
  EXPECT_EQ(RuntimePatchContentJson(a, trainer::TrainerVersion::kV2_3),
            RuntimePatchContentJson(b, trainer::TrainerVersion::kV2_3));
}

}  // namespace
}  // namespace tjr::validate
