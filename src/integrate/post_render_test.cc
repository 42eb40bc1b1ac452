// The Helm post-renderer's use case through its entry point: the stream
// given back, TrainJobs rendered in render mode, refusals.
#include "integrate/post_render.h"

#include <gtest/gtest.h>

#include <string>

#include "testkit/fixtures.h"

namespace tjr::integrate {
namespace {

const char kConfigMap[] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings  # kept as written\n";

std::string Stream() {
  return std::string("---\n# Source: chart/templates/cm.yaml\n") + kConfigMap + "---\n" + testkit::kPlainRuntime +
         "---\n" + testkit::kPlainTrainJob;
}

PostRenderRequest Request(std::string stream) {
  PostRenderRequest request;
  request.stream = std::move(stream);
  request.config_path = "no-such-dir/.tjrender.yaml";
  return request;
}

TEST(PostRenderTest, ValidateGivesTheStreamBackByteForByte) {
  app::Findings findings;
  PostRenderOutcome outcome = PostRender(Request(Stream()), findings);
  ASSERT_FALSE(outcome.refused) << outcome.refused->ToString();
  EXPECT_FALSE(findings.has_errors());
  EXPECT_EQ(outcome.stream, Stream());
}

TEST(PostRenderTest, RenderReplacesTheTrainJobAndDropsTheRuntime) {
  PostRenderRequest request = Request(Stream());
  request.render = true;
  app::Findings findings;
  PostRenderOutcome outcome = PostRender(request, findings);
  ASSERT_FALSE(outcome.refused);
  EXPECT_FALSE(findings.has_errors());
  // The ConfigMap document, comment and all, then the JobSet in the
  // TrainJob's namespace.
  EXPECT_EQ(outcome.stream.find(std::string("---\n# Source: chart/templates/cm.yaml\n") + kConfigMap), 0u);
  EXPECT_NE(outcome.stream.find("kind: JobSet"), std::string::npos) << outcome.stream;
  EXPECT_NE(outcome.stream.find("namespace: team"), std::string::npos);
  EXPECT_EQ(outcome.stream.find("kind: TrainJob"), std::string::npos);
  EXPECT_EQ(outcome.stream.find("kind: ClusterTrainingRuntime"), std::string::npos);
}

TEST(PostRenderTest, AnUnreadableDocumentOrAnUnknownTargetRefusesTheRun) {
  app::Findings findings;
  EXPECT_TRUE(PostRender(Request("a: [\n"), findings).refused);
  PostRenderRequest request = Request(Stream());
  request.target = "trainer-v9.9";
  PostRenderOutcome outcome = PostRender(request, findings);
  ASSERT_TRUE(outcome.refused);
  EXPECT_NE(outcome.refused->message.find("unsupported target 'trainer-v9.9'"), std::string::npos);
}

TEST(PostRenderTest, ATrainJobTheControllerWouldRefuseIsAFindingAndNoStream) {
  app::Findings findings;
  // No runtime in the stream: the runtimeRef resolves to nothing.
  PostRenderOutcome outcome = PostRender(Request(testkit::kPlainTrainJob), findings);
  ASSERT_FALSE(outcome.refused);
  EXPECT_TRUE(findings.has_errors());
}

}  // namespace
}  // namespace tjr::integrate
