// The KRM function's use case through its entry point: the ResourceList
// given back with results, TrainJobs rendered, the functionConfig's mode.
#include "integrate/krm_function.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/integration_render.h"
#include "testkit/temp_dir.h"

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

// Items without a namespace are checked in a stand-in that no result
// shows, and a duplicate names the other copy's file, not the ResourceList.
TEST(KrmFunctionTest, ResultsNameTheUsersFilesAndNoStandInNamespace) {
  std::string job =
      "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
      "  kind: TrainJob\n"
      "  metadata:\n"
      "    name: twice\n"
      "    annotations:\n"
      "      config.kubernetes.io/path: FILE\n"
      "  spec:\n"
      "    runtimeRef: {name: absent}\n";
  auto copy = [&](const std::string& file) {
    std::string text = job;
    return text.replace(text.find("FILE"), 4, file);
  };
  std::string list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + copy("a.yaml") +
                     copy("b.yaml") + "- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainJob\n"
                     "  metadata:\n    name: once\n    annotations: {config.kubernetes.io/path: c.yaml}\n"
                     "  spec:\n    runtimeRef: {name: absent}\n";
  app::Findings findings;
  KrmOutcome outcome = RunKrmFunction(Request(list), findings);
  ASSERT_FALSE(outcome.refused);
  std::vector<std::string> messages;
  for (const report::Finding& f : findings.findings()) messages.push_back(f.diagnostic.ToString());
  ASSERT_EQ(messages.size(), 3u) << outcome.resource_list;
  EXPECT_EQ(messages[0], "a.yaml:1:1: error: [duplicate-object] duplicate TrainJob twice: also defined at b.yaml:1:1; "
                         "no copy is rendered or checked");
  EXPECT_EQ(messages[1], "b.yaml:1:1: error: [duplicate-object] duplicate TrainJob twice: also defined at a.yaml:1:1; "
                         "no copy is rendered or checked");
  EXPECT_NE(messages[2].find("c.yaml:"), std::string::npos) << messages[2];
  EXPECT_EQ(outcome.resource_list.find(app::kUntoldNamespace), std::string::npos) << outcome.resource_list;
  EXPECT_EQ(outcome.resource_list.find("<stdin>"), std::string::npos) << outcome.resource_list;
}

// A platform's runtimes kept outside the package: --runtimes or the
// functionConfig's data.runtime-paths; read, never written out.
TEST(KrmFunctionTest, RuntimesFromAConfiguredPath) {
  testkit::TempDir dir{"krm-runtimes"};
  std::string list = List("");
  std::size_t job = list.find("- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainJob");
  dir.Write("platform/runtime.yaml",
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata:\n  name: elsewhere\n"
            "spec:\n  template:\n    spec:\n      replicatedJobs:\n      - name: node\n        template:\n"
            "          metadata:\n            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}\n"
            "          spec:\n            template:\n              spec:\n                containers:\n"
            "                - {name: node, image: busybox}\n");
  std::string only_job = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + list.substr(job);
  only_job.replace(only_job.find("{name: plain}"), 13, "{name: elsewhere}");
  {
    app::Findings findings;
    RunKrmFunction(Request(only_job), findings);
    EXPECT_TRUE(findings.has_errors()) << "without the path the runtime is not found";
  }
  app::Findings by_flag;
  KrmRequest request = Request(only_job);
  request.runtime_paths = {dir.Path("platform")};
  request.mode = "render";
  KrmOutcome outcome = RunKrmFunction(request, by_flag);
  ASSERT_FALSE(outcome.refused);
  EXPECT_FALSE(by_flag.has_errors());
  EXPECT_NE(outcome.resource_list.find("kind: JobSet"), std::string::npos) << outcome.resource_list;
  EXPECT_EQ(outcome.resource_list.find("ClusterTrainingRuntime"), std::string::npos) << "read, never written out";

  app::Findings by_config;
  outcome = RunKrmFunction(Request(only_job + "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n"
                                              "  data: {runtime-paths: '" + dir.Path("platform") + "'}\n"),
                           by_config);
  EXPECT_FALSE(by_config.has_errors());
}

}  // namespace
}  // namespace tjr::integrate
