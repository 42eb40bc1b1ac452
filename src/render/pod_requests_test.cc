// PodRequests as k8s.io/component-helpers computes it (spec §1.3 step 4).
#include "render/pod_requests.h"

#include <gtest/gtest.h>

#include "render/test_util.h"

namespace tjr::render {
namespace {

using testing::ToYaml;
using testing::Yaml;

std::string Requests(std::string_view pod_spec) {
  Result<ResourceList> r = PodRequests(Yaml(pod_spec));
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return "";
  for (auto& [name, amount] : *r) amount.Mul(1);  // print as computed values
  return ToYaml(ResourceListToJson(*r));
}

TEST(PodRequests, SumsContainersAndTakesMaxWithInitContainers) {
  EXPECT_EQ(Requests(R"(
containers:
- {name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}
- {name: b, resources: {requests: {cpu: 1}}}
initContainers:
- {name: i1, resources: {requests: {cpu: 2, memory: 512Mi}}}
- {name: i2, resources: {requests: {nvidia.com/gpu: 1}}}
)"),
            "cpu: \"2\"\nmemory: 1Gi\nnvidia.com/gpu: \"1\"\n");
}

// A sidecar (restartPolicy Always) is added to the containers' sum and to
// every later init container's requirement.
TEST(PodRequests, SidecarsAddUp) {
  EXPECT_EQ(Requests(R"(
containers:
- {name: a, resources: {requests: {cpu: 1}}}
initContainers:
- {name: s, restartPolicy: Always, resources: {requests: {cpu: 500m}}}
- {name: i, resources: {requests: {cpu: 2}}}
)"),
            "cpu: 2500m\n");
}

TEST(PodRequests, PodLevelRequestsReplaceSupportedResourcesAndOverheadAdds) {
  EXPECT_EQ(Requests(R"(
resources: {requests: {cpu: 4}}
overhead: {memory: 100Mi}
containers:
- {name: a, resources: {requests: {cpu: 1, memory: 1Gi}}}
)"),
            "cpu: \"4\"\nmemory: 1124Mi\n");
}

}  // namespace
}  // namespace tjr::render
