// Findings formats, report files and ignore rules, end to end through
// `tjrender check` and `tjrender render`.
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

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A copy of the sample repository the test may change. The sample is clean;
// the copy's persistent-storage.yaml asks for 0 nodes, one warning the
// cluster admits (num-nodes-zero: a Job of parallelism 0 starts no pods).
class RepoCopy : public testkit::TempDir {
 public:
  RepoCopy() : TempDir("reports") {
    CopyFrom(testkit::SampleRepo());
    const fs::path file = *this / "trainjobs/persistent-storage.yaml";
    std::string text = Slurp(file);
    const std::string anchor = "    image: docker.io/myorg/custom-training:latest\n";
    text.replace(text.find(anchor), anchor.size(), anchor + "    numNodes: 0\n");
    std::ofstream(file) << text;
  }
};

const char kWarningRule[] = "num-nodes-zero";

TEST(Reports, TextEndsWithTheSummaryLine) {
  RepoCopy repo;
  Outcome run = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(run.err.ends_with("\n5 objects rendered, 11 checked, 0 files skipped, 0 errors, 1 warnings\n")) << run.err;
}

TEST(Reports, CheckWritesMachineFormatsToStdoutOnly) {
  RepoCopy repo;
  Outcome run = Invoke(RunCheck, {repo.str(), "--format", "json"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  EXPECT_TRUE(run.out.starts_with("{\n")) << run.out;
  EXPECT_NE(run.out.find(std::string("\"rule\": \"") + kWarningRule + "\""), std::string::npos) << run.out;
}

TEST(Reports, RenderKeepsManifestsOnStdoutAndWritesEveryReport) {
  RepoCopy repo;
  fs::path sarif = repo / "out.sarif";
  fs::path junit = repo / "out.xml";
  // The sample repository is a Trainer v2.1 one; its .tjrender.yaml is not
  // read when the first PATH is a subfolder.
  Outcome run = Invoke(RunRender, {repo.str() + "/trainjobs", repo.str() + "/runtimes",
                                   "--target", "trainer-v2.1", "--findings-format", "github", "--report",
                                   "sarif=" + sarif.string(), "--report", "junit=" + junit.string()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("kind: JobSet\n"), std::string::npos);
  EXPECT_NE(run.err.find("::warning file="), std::string::npos) << run.err;
  EXPECT_NE(Slurp(sarif).find("\"version\": \"2.1.0\""), std::string::npos);
  EXPECT_NE(Slurp(junit).find("<testsuites tests=\"4\" failures=\"0\""), std::string::npos)
      << Slurp(junit);
}

TEST(Reports, BadFormatsAreUsageErrors) {
  RepoCopy repo;
  EXPECT_EQ(Invoke(RunCheck, {repo.str(), "--format", "yaml"}).exit_code, 2);
  EXPECT_EQ(Invoke(RunCheck, {repo.str(), "--report", "sarif"}).exit_code, 2);
  EXPECT_EQ(Invoke(RunCheck, {repo.str(), "--report", "xml=a"}).exit_code, 2);
  EXPECT_EQ(Invoke(RunRender, {repo.str(), "--findings-format", "tap"}).exit_code, 2);
}

TEST(Reports, IgnoreAnnotationWithReason) {
  RepoCopy repo;
  fs::path file = repo / "trainjobs/persistent-storage.yaml";
  std::string text = Slurp(file);
  std::string anchor = "  namespace: ml-team\n";
  text.replace(text.find(anchor), anchor.size(),
               anchor + "  annotations:\n    tjrender.dev/ignore: " + kWarningRule +
                   "\n    tjrender.dev/ignore-reason: kept paused on purpose\n");
  std::ofstream(file) << text;
  Outcome run = Invoke(RunCheck, {repo.str(), "--strict"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.err.ends_with("5 objects rendered, 11 checked, 0 files skipped, 0 errors, 0 warnings\n")) << run.err;
}

TEST(Reports, IgnoreAnnotationWithoutReasonWarns) {
  RepoCopy repo;
  fs::path file = repo / "trainjobs/persistent-storage.yaml";
  std::string text = Slurp(file);
  std::string anchor = "  namespace: ml-team\n";
  text.replace(text.find(anchor), anchor.size(),
               anchor + "  annotations:\n    tjrender.dev/ignore: " + kWarningRule + "\n");
  std::ofstream(file) << text;
  Outcome run = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("findings are ignored without a reason"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find(std::string("[") + kWarningRule + "]"), std::string::npos) << run.err;
}

TEST(Reports, IgnoreListInTheRepositoryConfig) {
  RepoCopy repo;
  repo.Write(".tjrender.yaml", std::string("target: trainer-v2.1\nignore:\n  - rule: ") + kWarningRule +
                                   "\n    reason: kept paused on purpose\n");
  Outcome run = Invoke(RunCheck, {repo.str(), "--verbose"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("1 finding(s) ignored"), std::string::npos) << run.err;
  repo.Write(".tjrender.yaml", std::string("target: trainer-v2.1\nignore:\n  - rule: ") + kWarningRule + "\n");
  Outcome no_reason = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(no_reason.exit_code, 2);
  EXPECT_NE(no_reason.err.find("ignore[0].reason: is required"), std::string::npos) << no_reason.err;
}

TEST(Reports, ErrorsCannotBeIgnored) {
  RepoCopy repo;
  repo.Write("trainjobs/lonely.yaml",
             "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: lonely\n"
             "  annotations:\n    tjrender.dev/ignore: upstream/*\n    tjrender.dev/ignore-reason: x\n"
             "spec:\n  runtimeRef:\n    name: absent\n");
  Outcome run = Invoke(RunCheck, {repo.str()});
  EXPECT_EQ(run.exit_code, 1) << run.err;
}

TEST(Reports, RuntimeFindingsNameTheirRuntime) {
  Outcome run = Invoke(RunCheck, {testkit::SourcePath("conformance/restrictions/runtime-ml-policy-torch-and-mpi/input"),
                                  "--format", "json"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("\"kind\": \"ClusterTrainingRuntime\",\n                \"name\": \"both\""),
            std::string::npos)
      << run.out;
}

TEST(RenderCheck, ComparesWithTheRenderedTreeWithoutWriting) {
  RepoCopy repo;
  std::string out = repo.str() + "/rendered";
  EXPECT_EQ(Invoke(RunRender, {repo.str(), "--check"}).exit_code, 2) << "--check needs --out";
  Outcome missing = Invoke(RunRender, {repo.str(), "--out", out, "--check"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("deepspeed-t5.yaml: error: missing from the rendered tree"),
            std::string::npos)
      << missing.err;
  EXPECT_FALSE(fs::exists(out)) << "--check writes nothing";
  ASSERT_EQ(Invoke(RunRender, {repo.str(), "--out", out}).exit_code, 0);
  EXPECT_EQ(Invoke(RunRender, {repo.str(), "--out", out, "--check"}).exit_code, 0);
  // Objects of kinds the loader skips: the rendered tree sits inside the repository.
  // (ConfigMaps are read, for Flyte's propeller configuration: two names.)
  repo.Write("rendered/ml-team/deepspeed-t5.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n");
  repo.Write("rendered/ml-team/gone.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: older\n");
  Outcome stale = Invoke(RunRender, {repo.str(), "--out", out, "--check", "--report", "json=" + out + ".json"});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_NE(stale.err.find("deepspeed-t5.yaml: error: stale"), std::string::npos) << stale.err;
  EXPECT_NE(stale.err.find("gone.yaml: error: no TrainJob renders to this file"), std::string::npos)
      << stale.err;
  std::string report = Slurp(out + ".json");
  EXPECT_NE(report.find("\"rule\": \"rendered-stale\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"rule\": \"rendered-extra\""), std::string::npos) << report;
}

TEST(CheckRepo, EntryPointsResolveRuntimesFromTheRepository) {
  RepoCopy repo;
  std::string job = repo / "trainjobs/custom-sa-node-selector.yaml";
  EXPECT_EQ(Invoke(RunCheck, {job}).exit_code, 1) << "alone, its runtime is missing";
  Outcome run = Invoke(RunCheck, {job, "--repo", repo.str()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // Only the entry point is checked: the copy's warning elsewhere is not reported.
  // Only the runtime it references joins it (1 TrainJob and 1 runtime checked).
  EXPECT_TRUE(run.err.ends_with("1 objects rendered, 2 checked, 0 files skipped, 0 errors, 0 warnings\n"))
      << run.err;
  // A runtime passed as an entry point is not read twice.
  Outcome both = Invoke(RunCheck, {job, repo / "runtimes/torch_distributed.yaml", "--repo", repo.str()});
  EXPECT_EQ(both.exit_code, 0) << both.err;
}

}  // namespace
}  // namespace tjr::cli
