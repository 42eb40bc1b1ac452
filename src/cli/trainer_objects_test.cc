// `tjrender check` and `render` on Trainer objects written the way people
// get them wrong: fields one indentation level too far out, a runtime
// defined twice, an apiVersion no release serves, a TrainJob named by
// generateName, and fields upstream accepts and then ignores.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "cli/test_support.h"
#include "testkit/fixtures.h"

namespace tjr::cli {
namespace {

using testing::Invoke;
using testing::Outcome;
using testing::TempDir;

constexpr const char* kRuntime = testkit::kTorchOneNodeRuntime;

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TopLevelFieldsTest, AFieldOneLevelTooFarOutIsAWarningNamingWhereItBelongs) {
  TempDir repo;
  repo.Write("runtime.yaml", kRuntime);
  repo.Write("job.yaml", R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
spec:
  runtimeRef:
    name: torch
trainer:
  numNodes: 4
)");
  Outcome check = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  // At the `trainer:` key (line 8), not at numNodes, where its value starts.
  EXPECT_TRUE(Has(check.err, repo / "job.yaml" + ":8:1: warning: [field-pruned] unknown field \"trainer\": the Trainer "
                                                 "v2.3.0 TrainJob schema has no such field"))
      << check.err;
  EXPECT_TRUE(Has(check.err, "; `trainer` is a field of `spec`\n")) << check.err;
  EXPECT_TRUE(check.err.ends_with(", 0 errors, 1 warnings\n")) << check.err;
  // What the cluster stores runs on the runtime's one node.
  Outcome render = Invoke(RunRender, {repo.str(), "-o", "-"});
  EXPECT_TRUE(Has(render.out, "        parallelism: 1\n")) << render.out;
  // Under --strict (as kubectl apply's strict field validation) it is refused.
  EXPECT_EQ(Invoke(RunCheck, {repo.str(), "--strict"}).exit_code, 1);
}

TEST(ApiVersionTest, ATrainJobInAVersionNoReleaseServesIsAWarningWithoutVerbose) {
  TempDir repo;
  repo.Write("job.yaml", R"(apiVersion: kubeflow.org/v2alpha1
kind: TrainJob
metadata:
  name: job
spec:
  runtimeRef:
    name: torch
)");
  repo.Write("pytorchjob.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: v1\nspec: {}\n");
  Outcome check = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_TRUE(Has(check.err, repo / "job.yaml" + ":1:13: warning: [api-version-not-served] TrainJob of apiVersion "
                                                 "kubeflow.org/v2alpha1 is not rendered or checked"))
      << check.err;
  EXPECT_TRUE(Has(check.err, ": no matches for kind \"TrainJob\" in version \"kubeflow.org/v2alpha1\"\n")) << check.err;
  EXPECT_FALSE(Has(check.err, "PyTorchJob")) << check.err;
  EXPECT_TRUE(check.err.ends_with("0 checked, 0 files skipped, 0 errors, 1 warnings\n")) << check.err;
  Outcome json = Invoke(RunCheck, {repo.str(), "--format", "json"});
  EXPECT_TRUE(Has(json.out, "\"rule\": \"api-version-not-served\"")) << json.out;
}

TEST(DuplicateRuntimeTest, ATrainJobOnARuntimeDefinedTwiceIsToldSoAtEveryTarget) {
  TempDir repo;
  repo.Write("runtimes/torch.yaml", kRuntime);
  repo.Write("runtimes/copy-of-torch.yaml", kRuntime);
  repo.Write("job.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job\nspec:\n"
                         "  runtimeRef:\n    name: torch\n");
  for (const char* target : {"trainer-v2.1", "trainer-v2.2", "trainer-v2.3", "trainer-pr3199-preview"}) {
    Outcome check = Invoke(RunCheck, {repo.str(), "--target", target});
    EXPECT_EQ(check.exit_code, 1) << target << check.err;
    EXPECT_FALSE(Has(check.err, "not found")) << target << check.err;
    EXPECT_FALSE(Has(check.err, "must be created before")) << target << check.err;
    const std::string finding = repo / "job.yaml" + ":6:3: error: spec.runtimeRef: [duplicate-runtime] the runtime "
                                "ClusterTrainingRuntime torch is defined more than once (" +
                                repo / "runtimes/copy-of-torch.yaml" + ":1:1, " + repo / "runtimes/torch.yaml" +
                                ":1:1; see the duplicate-object errors there)";
    EXPECT_TRUE(Has(check.err, finding)) << target << check.err;
    // One finding for the TrainJob, one duplicate-object at each copy.
    EXPECT_TRUE(check.err.ends_with(" 3 errors, 0 warnings\n")) << target << check.err;
  }
}

TEST(RefusedRuntimeTest, ATrainJobOnARuntimeTheApiServerRefusesIsToldWhy) {
  TempDir repo;
  std::string refused = kRuntime;
  refused.replace(refused.find("numNodes: 1"), 11, "numNodes: one");
  repo.Write("runtimes/torch.yaml", refused);
  repo.Write("job.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job\nspec:\n"
                         "  runtimeRef:\n    name: torch\n");
  for (const char* target : {"trainer-v2.1", "trainer-v2.2", "trainer-v2.3"}) {
    Outcome check = Invoke(RunCheck, {repo.str(), "--target", target});
    EXPECT_EQ(check.exit_code, 1) << target << check.err;
    // The webhook's own answer stays; why sits beside it.
    EXPECT_TRUE(Has(check.err, "must be created before")) << target << check.err;
    EXPECT_TRUE(Has(check.err, repo / "job.yaml" + ":6:3: warning: [runtime-refused] the runtime "
                                "ClusterTrainingRuntime torch is among the inputs, but the API server refuses it (" +
                                repo / "runtimes/torch.yaml" + ":7:15), so it is never stored"))
        << target << check.err;
    EXPECT_TRUE(Has(check.err, repo / "runtimes/torch.yaml" + ":7:15: error: spec.mlPolicy.numNodes")) << check.err;
  }
  // A TrainingRuntime of another namespace is no reason: still not found.
  std::string namespaced = refused;
  namespaced.replace(namespaced.find("ClusterTrainingRuntime"), 22, "TrainingRuntime");
  namespaced.replace(namespaced.find("name: torch"), 11, "name: torch\n  namespace: other");
  repo.Write("runtimes/torch.yaml", namespaced);
  const std::string kind_ref = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job\n"
                         "  namespace: ml\nspec:\n  runtimeRef:\n    name: torch\n    kind: TrainingRuntime\n";
  repo.Write("job.yaml", kind_ref);
  Outcome elsewhere = Invoke(RunCheck, {repo.str(), "--target", "trainer-v2.3"});
  EXPECT_FALSE(Has(elsewhere.err, "runtime-refused")) << elsewhere.err;
  EXPECT_TRUE(Has(elsewhere.err, "not found")) << elsewhere.err;
}

constexpr char kGeneratedJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  generateName: llama-sweep-
spec:
  runtimeRef:
    name: torch
)";

TEST(GenerateNameTest, ATrainJobForKubectlCreateIsCheckedAndRenderedUnderItsLongestName) {
  TempDir repo;
  repo.Write("runtime.yaml", kRuntime);
  repo.Write("job.yaml", kGeneratedJob);
  Outcome check = Invoke(RunCheck, {repo.str(), "--verbose"});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_FALSE(Has(check.err, "required")) << check.err;
  EXPECT_TRUE(Has(check.err, repo / "job.yaml" + ":4:17: note: metadata.generateName: [generated-name] the API server "
                                                 "names this TrainJob on create (\"llama-sweep-\" and 5 random "
                                                 "characters), so it is checked and rendered as llama-sweep-xxxxx, the "
                                                 "longest name it can get; these values hold that name and differ in "
                                                 "the cluster: ConfigMap llama-sweep-xxxxx-runtime-snapshot "
                                                 "metadata.name, "))
      << check.err;
  EXPECT_TRUE(Has(check.err, "JobSet llama-sweep-xxxxx metadata.name")) << check.err;
  EXPECT_TRUE(Has(check.err, "\n2 objects rendered, 2 checked, 0 files skipped, 0 errors, 0 warnings\n")) << check.err;

  Outcome render = Invoke(RunRender, {repo.str(), "-o", "-"});
  EXPECT_EQ(render.exit_code, 0) << render.err;
  EXPECT_TRUE(Has(render.out, "kind: JobSet\nmetadata:\n  name: llama-sweep-xxxxx\n")) << render.out;

  TempDir out;
  Outcome folder = Invoke(RunRender, {repo.str(), "--out", out.str()});
  EXPECT_EQ(folder.exit_code, 0) << folder.err;
  EXPECT_TRUE(std::filesystem::exists(out / "default/llama-sweep-xxxxx.yaml")) << folder.err;
}

TEST(GenerateNameTest, NameRulesSeeTheGeneratedName) {
  TempDir repo;
  repo.Write("runtime.yaml", kRuntime);
  // The API server cuts the prefix to 58 characters and adds 5: 63, the
  // most the CRD's CEL rule allows. An upper-case prefix fails RFC 1035 in
  // every name it can get.
  repo.Write("long.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  generateName: " +
                              std::string(70, 'a') + "\nspec:\n  runtimeRef:\n    name: torch\n");
  repo.Write("upper.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  generateName: "
                           "Sweep-\nspec:\n  runtimeRef:\n    name: torch\n");
  // Admission off: the JobSet webhook refuses a 63-character JobSet name
  // (rendered/jobset/generated-names, pinned below); this test is about the
  // TrainJob's name rules.
  Outcome check = Invoke(RunCheck, {repo.str(), "--no-admission"});
  EXPECT_EQ(check.exit_code, 1) << check.err;
  EXPECT_TRUE(Has(check.err, repo / "upper.yaml" + ":")) << check.err;
  EXPECT_TRUE(Has(check.err, "metadata.name must match RFC 1035 DNS label format")) << check.err;
  EXPECT_FALSE(Has(check.err, repo / "long.yaml")) << check.err;
  Outcome admitted = Invoke(RunCheck, {repo / "long.yaml", repo / "runtime.yaml"});
  EXPECT_TRUE(Has(admitted.err, "error: [rendered/jobset/generated-names] JobSet default/" + std::string(58, 'a') +
                                    "xxxxx: spec.replicatedJobs[0].name: "))
      << admitted.err;
  Outcome render = Invoke(RunRender, {repo / "long.yaml", repo / "runtime.yaml", "-o", "-", "--no-admission"});
  EXPECT_TRUE(Has(render.out, "  name: " + std::string(58, 'a') + "xxxxx\n")) << render.out;
}

TEST(IgnoredUpstreamTest, WhatTheControllerAcceptsAndDropsIsAWarningWithItsReason) {
  TempDir repo;
  // The runtime's job lost its trainer label; a second, MPI runtime names
  // its worker job `worker`; a third is Torch on two nodes.
  std::string unlabelled = kRuntime;
  unlabelled.erase(unlabelled.find("            metadata:\n"),
                   std::string("            metadata:\n              labels:\n                "
                               "trainer.kubeflow.org/trainjob-ancestor-step: trainer\n")
                       .size());
  repo.Write("runtimes/torch.yaml", unlabelled);
  std::string mpi = kRuntime;
  mpi.replace(mpi.find("name: torch"), 11, "name: mpi");
  mpi.replace(mpi.find("torch: {}"), 9, "mpi: {}");
  mpi.replace(mpi.find("- name: node"), 12, "- name: worker");
  repo.Write("runtimes/mpi.yaml", mpi);
  std::string two = kRuntime;
  two.replace(two.find("name: torch"), 11, "name: two-nodes");
  two.replace(two.find("numNodes: 1"), 11, "numNodes: 2");
  repo.Write("runtimes/two-nodes.yaml", two);
  repo.Write("jobs/a.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: a\nspec:\n"
                            "  runtimeRef:\n    name: torch\n  trainer:\n    image: mine:1\n");
  repo.Write("jobs/b.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: b\nspec:\n"
                            "  runtimeRef:\n    name: two-nodes\n");
  Outcome check = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_TRUE(Has(check.err, repo / "jobs/a.yaml" + ":9:12: warning: [trainer-fields-ignored] spec.trainer.image is "
                                                     "ignored: no replicatedJob of ClusterTrainingRuntime torch carries "
                                                     "the label trainer.kubeflow.org/trainjob-ancestor-step: trainer"))
      << check.err;
  EXPECT_TRUE(Has(check.err, repo / "runtimes/mpi.yaml" + ":12:9: warning: [mpi-node-missing] MPI ClusterTrainingRuntime "
                                                           "mpi has no replicatedJob named node"))
      << check.err;
  EXPECT_TRUE(Has(check.err, repo / "jobs/b.yaml" + ":6:3: warning: [torch-env-not-injected] the TrainJob has no "
                                                     "spec.trainer"))
      << check.err;
  EXPECT_TRUE(check.err.ends_with(", 0 errors, 3 warnings\n")) << check.err;
  EXPECT_EQ(Invoke(RunCheck, {repo.str(), "--strict"}).exit_code, 1);
}

}  // namespace
}  // namespace tjr::cli
