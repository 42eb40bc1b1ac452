// render and check around a repository: the TrainJobs a staged runtime
// affects (pre-commit), the advice of `render --out --check`, and objects
// meant to be applied without the Trainer controller (--for-apply).
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/commands.h"
#include "cli/test_support.h"
#include "testkit/fixtures.h"

namespace tjr::cli {
namespace {

using testing::Invoke;
using testing::Outcome;
using testing::TempDir;

constexpr const char* kRuntime = testkit::kTorchOneNodeRuntime;

std::string TrainJob(const std::string& name, const std::string& runtime = "torch") {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + name +
         "\n  namespace: ml\nspec:\n  runtimeRef:\n    name: " + runtime + "\n";
}

// A runtime with a dataset initializer, as Trainer v2.3 wants it: the
// initializer container mounts the `initializer` volume.
constexpr char kInitializerRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: with-data
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
  template:
    spec:
      replicatedJobs:
        - name: dataset-initializer
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer
            spec:
              template:
                spec:
                  containers:
                    - name: dataset-initializer
                      image: ghcr.io/kubeflow/trainer/dataset-initializer
                      volumeMounts:
                        - name: initializer
                          mountPath: /workspace
                  volumes:
                    - name: initializer
                      persistentVolumeClaim:
                        claimName: initializer
        - name: node
          dependsOn:
            - name: dataset-initializer
              status: Complete
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

// The same runtime after a change that looks harmless: the mount is gone,
// and the webhook refuses every TrainJob that initializes a dataset.
std::string WithoutTheMount() {
  std::string text = kInitializerRuntime;
  std::size_t from = text.find("                      volumeMounts:");
  std::size_t to = text.find("                  volumes:");
  return text.erase(from, to - from);
}

TEST(RepositoryContextTest, AStagedRuntimeAlsoChecksTheTrainJobsThatUseIt) {
  TempDir repo;
  repo.Write("runtimes/with-data.yaml", kInitializerRuntime);
  repo.Write("runtimes/torch.yaml", kRuntime);
  repo.Write("jobs/a.yaml", TrainJob("a", "with-data") + "  initializer:\n    dataset:\n      storageUri: hf://x/y\n");
  repo.Write("jobs/b.yaml", TrainJob("b"));
  Outcome clean = Invoke(RunCheck, {"--repo", repo.str(), repo / "runtimes/with-data.yaml"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  // The staged runtime and the TrainJob that uses it; not b or its runtime.
  EXPECT_TRUE(clean.err.ends_with(" 2 checked, 0 files skipped, 0 errors, 0 warnings\n")) << clean.err;

  // Only the runtime is staged; the TrainJob that uses it breaks.
  repo.Write("runtimes/with-data.yaml", WithoutTheMount());
  Outcome broken = Invoke(RunCheck, {"--repo", repo.str(), repo / "runtimes/with-data.yaml"});
  EXPECT_EQ(broken.exit_code, 1) << broken.err;
  EXPECT_NE(broken.err.find(repo / "jobs/a.yaml" + ":"), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find("must have volumeMount with name - initializer in container dataset-initializer"),
            std::string::npos)
      << broken.err;
  EXPECT_EQ(broken.err.find(repo / "jobs/b.yaml"), std::string::npos) << broken.err;
  // Without --repo nothing else is read.
  EXPECT_EQ(Invoke(RunCheck, {repo / "runtimes/with-data.yaml"}).exit_code, 0);
}

TEST(OutCheckTest, AdviceFitsWhyAFileIsStale) {
  TempDir repo;
  repo.Write("runtimes/torch.yaml", kRuntime);
  repo.Write("jobs/a.yaml", TrainJob("a"));
  repo.Write("jobs/b.yaml", TrainJob("b"));
  TempDir out;
  ASSERT_EQ(Invoke(RunRender, {repo.str(), "--out", out.str()}).exit_code, 0);
  out.Write("ml/hand-made.yaml", "kind: Note\n");

  // a now fails validation, b is gone.
  repo.Write("jobs/a.yaml", TrainJob("a", "absent"));
  std::filesystem::remove(repo / "jobs/b.yaml");
  Outcome check = Invoke(RunRender, {repo.str(), "--out", out.str(), "--check"});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_NE(check.err.find(out / "ml/a.yaml" + ": error: stale: its TrainJob no longer renders, the cluster would "
                                                "refuse it (" + repo / "jobs/a.yaml"),
            std::string::npos)
      << check.err;
  EXPECT_NE(check.err.find(out / "ml/b.yaml" + ": error: its TrainJob is gone: run `tjrender render " + repo.str() +
                           " --out " + out.str() + "`, which removes the files of TrainJobs that no longer exist"),
            std::string::npos)
      << check.err;
  EXPECT_NE(check.err.find(out / "ml/hand-made.yaml" + ": error: no TrainJob renders to this file, and tjrender "
                                                       "did not write it"),
            std::string::npos)
      << check.err;
  EXPECT_EQ(check.err.find("never deletes"), std::string::npos) << check.err;
}

TEST(ForApplyTest, NoOwnerReferencesAndTheMissingSecretIsAWarning) {
  const std::string repo = testing::SourcePath("fixtures/trainer-repo");
  Outcome plain = Invoke(RunRender, {repo, "-o", "-"});
  Outcome apply = Invoke(RunRender, {repo, "-o", "-", "--for-apply"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("ownerReferences:"), std::string::npos);
  EXPECT_EQ(plain.err.find("secret-not-rendered"), std::string::npos) << "a --verbose note only: " << plain.err;
  EXPECT_EQ(apply.exit_code, 0) << apply.err;
  EXPECT_EQ(apply.out.find("ownerReferences"), std::string::npos);
  EXPECT_NE(apply.err.find("warning: [secret-not-rendered] Secret deepspeed-t5-mpi-ssh-auth is not rendered"),
            std::string::npos)
      << apply.err;
}

}  // namespace
}  // namespace tjr::cli
