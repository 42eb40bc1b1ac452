// The KRM function's use case through its entry point: the ResourceList
// given back with results, TrainJobs rendered, the functionConfig's mode.
#include "integrate/krm_function.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr::integrate {
namespace {

// A ResourceList as kpt sends it: items with their origin annotations.
std::string List(const std::string& function_config) {
  return "apiVersion: config.kubernetes.io/v1\n"
         "kind: ResourceList\n"
         "items:\n"
         "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
         "  kind: ClusterTrainingRuntime\n"
         "  metadata:\n"
         "    name: plain\n"
         "    annotations:\n"
         "      config.kubernetes.io/path: runtime.yaml\n"
         "  spec:\n"
         "    template:\n"
         "      spec:\n"
         "        replicatedJobs:\n"
         "        - name: node\n"
         "          template:\n"
         "            metadata:\n"
         "              labels:\n"
         "                trainer.kubeflow.org/trainjob-ancestor-step: trainer\n"
         "            spec:\n"
         "              template:\n"
         "                spec:\n"
         "                  containers:\n"
         "                  - {name: node, image: busybox}\n"
         "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
         "  kind: TrainJob\n"
         "  metadata:\n"
         "    name: job\n"
         "    namespace: team\n"
         "    annotations:\n"
         "      config.kubernetes.io/path: jobs/job.yaml\n"
         "  spec:\n"
         "    runtimeRef: {name: plain}\n"
         "    trainer: {numNodes: 0}\n" +
         function_config;
}

KrmRequest Request(std::string list) {
  KrmRequest request;
  request.resource_list = std::move(list);
  request.config_path = "no-such-dir/.tjrender.yaml";
  return request;
}

TEST(KrmFunctionTest, ValidateAddsAResultPerFindingNamingTheItemsFile) {
  app::Findings findings;
  KrmOutcome outcome = RunKrmFunction(Request(List("")), findings);
  ASSERT_FALSE(outcome.refused) << outcome.refused->ToString();
  EXPECT_FALSE(findings.has_errors());  // trainer.numNodes: 0 is a warning
  EXPECT_EQ(outcome.resource_list.find(List("")), 0u);
  EXPECT_NE(outcome.resource_list.find("results:"), std::string::npos) << outcome.resource_list;
  EXPECT_NE(outcome.resource_list.find("path: jobs/job.yaml"), std::string::npos);
  EXPECT_NE(outcome.resource_list.find("rule: num-nodes-zero"), std::string::npos);
}

TEST(KrmFunctionTest, TheFunctionConfigSelectsRenderMode) {
  std::string list = List("");
  list.replace(list.find("    trainer: {numNodes: 0}\n"), 27, "");
  list += "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: {mode: render}\n";
  app::Findings findings;
  KrmOutcome outcome = RunKrmFunction(Request(list), findings);
  ASSERT_FALSE(outcome.refused);
  EXPECT_FALSE(findings.has_errors());
  EXPECT_NE(outcome.resource_list.find("kind: JobSet"), std::string::npos) << outcome.resource_list;
  EXPECT_NE(outcome.resource_list.find("config.kubernetes.io/path: jobs/rendered_job.yaml"), std::string::npos);
  EXPECT_EQ(outcome.resource_list.find("kind: TrainJob"), std::string::npos);
}

TEST(KrmFunctionTest, ABadModeOrAnUnreadableListRefusesTheRun) {
  app::Findings findings;
  KrmRequest request = Request(List(""));
  request.mode = "apply";
  KrmOutcome outcome = RunKrmFunction(request, findings);
  ASSERT_TRUE(outcome.refused);
  EXPECT_EQ(outcome.refused->ToString(), "error: mode must be validate or render, not 'apply'");
  EXPECT_TRUE(RunKrmFunction(Request("kind: [\n"), findings).refused);
}

}  // namespace
}  // namespace tjr::integrate
