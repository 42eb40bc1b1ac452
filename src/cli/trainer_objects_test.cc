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

namespace tjr::cli {
namespace {

using testing::Invoke;
using testing::Outcome;
using testing::TempDir;

constexpr char kRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: pytorch/pytorch:2.7.1
)";

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
  EXPECT_TRUE(Has(check.err, repo / "job.yaml" + ":9:3: warning: [field-pruned] unknown field \"trainer\": the Trainer "
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

}  // namespace
}  // namespace tjr::cli
