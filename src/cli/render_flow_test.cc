// End to end through the command handlers: `tjrender render` and `check`
// on the sample repository and on small temporary repositories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/test_support.h"

namespace tjr::cli {
namespace {
namespace fs = std::filesystem;

using testing::Invoke;
using testing::Outcome;
using testing::TempDir;

std::string SampleRepo() { return testing::SourcePath("fixtures/trainer-repo"); }

const char kLonelyTrainJob[] =
    "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: lonely\n"
    "spec:\n  runtimeRef:\n    name: absent\n";

TEST(RenderCommand, SampleRepositoryRendersCleanlyToStdout) {
  Outcome run = Invoke(RunRender, {SampleRepo(), "-o", "-"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("kind: JobSet"), std::string::npos);
  EXPECT_NE(run.out.find("\n---\n"), std::string::npos);
  EXPECT_NE(run.out.find("name: deepspeed-t5-mpi-hostfile"), std::string::npos);
  // The sample is clean: no warning, no error.
  EXPECT_EQ(run.err.find("warning:"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("error:"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("note:"), std::string::npos) << "notes only with --verbose";
}

TEST(RenderCommand, OutputDoesNotDependOnThreads) {
  Outcome one = Invoke(RunRender, {SampleRepo(), "--threads", "1"});
  Outcome four = Invoke(RunRender, {SampleRepo(), "--threads", "4"});
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_EQ(one.out, four.out);
  EXPECT_EQ(one.err, four.err);
}

TEST(RenderCommand, VerboseCountsAndNotes) {
  Outcome run = Invoke(RunRender, {SampleRepo(), "--verbose"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.err.find("note: [secret-not-rendered] Secret deepspeed-t5-mpi-ssh-auth is not rendered"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("read 11 file(s): 4 TrainJob(s), 7 runtime(s)"), std::string::npos)
      << run.err;
}

TEST(RenderCommand, OutWritesOneFilePerTrainJob) {
  TempDir out;
  Outcome run = Invoke(RunRender, {SampleRepo(), "--out", out.str()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(fs::exists(out / "ml-team/deepspeed-t5.yaml"));
  EXPECT_TRUE(fs::exists(out / "ml-team/pytorch-distributed-custom.yaml"));
  std::ifstream in(out / "ml-team/deepspeed-t5.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("kind: ConfigMap"), std::string::npos);
  EXPECT_NE(text.find("---\n"), std::string::npos);
  // The same bytes again leave the file alone.
  auto before = fs::last_write_time(out / "ml-team/deepspeed-t5.yaml");
  Outcome again = Invoke(RunRender, {SampleRepo(), "--out", out.str()});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(fs::last_write_time(out / "ml-team/deepspeed-t5.yaml"), before);
}

TEST(RenderCommand, ValidationErrorExitsOne) {
  TempDir repo;
  repo.Write("tj.yaml", kLonelyTrainJob);
  Outcome run = Invoke(RunRender, {repo.str(), "-o", "-"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find(repo / "tj.yaml" + ":6:3: error: spec.RuntimeRef: Invalid value: "),
            std::string::npos)
      << run.err;
}

TEST(RenderCommand, UnsupportedTargetExitsTwo) {
  Outcome run = Invoke(RunRender, {SampleRepo(), "--target", "trainer-v2.0"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unsupported target 'trainer-v2.0' (supported: trainer-v2.1, trainer-v2.2, trainer-v2.3, trainer-pr3199-preview, flyte-v1.16, flyte-v2)"),
            std::string::npos)
      << run.err;
}

TEST(RenderCommand, RepositoryConfigSetsTheTargetAndTheFlagWins) {
  TempDir repo;
  repo.Write(".tjrender.yaml", "target: trainer-v2.0\n");
  Outcome from_config = Invoke(RunRender, {repo.str()});
  EXPECT_EQ(from_config.exit_code, 2);
  EXPECT_NE(from_config.err.find("unsupported target 'trainer-v2.0'"), std::string::npos);
  Outcome flag = Invoke(RunRender, {repo.str(), "--target", "trainer-v2.1"});
  EXPECT_EQ(flag.exit_code, 0) << flag.err;

  repo.Write(".tjrender.yaml", "targt: trainer-v2.1\n");
  Outcome typo = Invoke(RunRender, {repo.str()});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("unknown setting 'targt' (known: target, ignore, include, exclude)"), std::string::npos)
      << typo.err;
}

TEST(RenderCommand, RepositoryConfigIncludeAndExclude) {
  TempDir repo;
  repo.Write("jobs/tj.yaml", kLonelyTrainJob);
  repo.Write("drafts/tj.yaml", kLonelyTrainJob);
  repo.Write(".tjrender.yaml", "exclude: [drafts]\ninclude: ['**/*.yaml']\n");
  Outcome run = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("jobs/tj.yaml"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("drafts/tj.yaml"), std::string::npos) << run.err;
  repo.Write(".tjrender.yaml", "exclude: drafts\n");
  Outcome bad = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("exclude: must be a list of glob patterns"), std::string::npos) << bad.err;
}

TEST(RenderCommand, UsageErrors) {
  EXPECT_EQ(Invoke(RunRender, {}).exit_code, 2);
  EXPECT_EQ(Invoke(RunRender, {SampleRepo(), "-o", "file.yaml"}).exit_code, 2);
  EXPECT_EQ(Invoke(RunRender, {SampleRepo(), "--format", "toml"}).exit_code, 2);
  EXPECT_EQ(Invoke(RunRender, {SampleRepo(), "-o", "-", "--out", "x"}).exit_code, 2);
}

TEST(CheckCommand, ValidatesWithoutWriting) {
  Outcome clean = Invoke(RunCheck, {SampleRepo()});
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_EQ(clean.out, "");
  TempDir repo;
  repo.Write("tj.yaml", kLonelyTrainJob);
  Outcome bad = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(Invoke(RunCheck, {repo.str(), "-o", "-"}).exit_code, 2);
}

TEST(CheckCommand, StrictTurnsWarningsIntoErrors) {
  // The sample is clean: a TrainJob of its own draws a warning the cluster
  // admits (num-nodes-zero: a Job of parallelism 0 is valid, it starts no pods).
  TempDir repo;
  repo.CopyFrom(SampleRepo());
  repo.Write("trainjobs/paused.yaml",
             "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: paused\n"
             "  namespace: ml-team\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n    numNodes: 0\n");
  Outcome plain = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("warning: [num-nodes-zero]"), std::string::npos) << plain.err;
  Outcome run = Invoke(RunCheck, {repo.str(), "--strict"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("error: [num-nodes-zero]"), std::string::npos) << run.err;
}

// Flyte tasks beside TrainJobs: one Pod per task, DIR/<ns>/<task>.pod.yaml,
// a plain propeller config file in the repository is the configuration.
const char kFlyteTask[] =
    "namespace: team\nexecution: {generatedName: t1-n0-0}\nid: {name: wf.t1}\n"
    "type: python-task\nconfig: {primary_container_name: main}\n"
    "k8sPod: {podSpec: {containers: [{name: main, image: img}]}}\n";

TEST(RenderCommand, FlyteTasksRenderIntoPods) {
  TempDir repo;
  repo.Write("task.yaml", kFlyteTask);
  repo.Write("propeller.yaml", "plugins:\n  k8s:\n    default-labels: {from: config}\n");
  TempDir out;
  Outcome run = Invoke(RunRender, {repo.str(), "--out", out.str(), "--target", "flyte-v2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(out / "team/wf.t1.pod.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("kind: Pod"), std::string::npos) << text;
  EXPECT_NE(text.find("from: config"), std::string::npos) << text;
  TempDir elsewhere;
  elsewhere.Write("other.yaml", "plugins:\n  k8s:\n    default-labels: {from: flag}\n");
  Outcome flag = Invoke(RunRender, {repo.str(), "-o", "-", "--flyte-config", elsewhere / "other.yaml"});
  EXPECT_NE(flag.out.find("from: flag"), std::string::npos) << flag.out << flag.err;
  Outcome check = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.out, "");
  repo.Write("task.yaml", std::string(kFlyteTask) + "metadata: {podTemplateName: absent}\n");
  Outcome bad = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("error: PodTemplate 'absent' does not exist"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace tjr::cli
