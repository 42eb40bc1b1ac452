// `render` and `check` on Git sources: --rev, --since, --list-affected and
// the --out folder, on throw-away repositories (skipped without git).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/file.h"
#include "cli/commands.h"
#include "cli/test_support.h"
#include "cli/progress.h"
#include "testkit/fixtures.h"
#include "testkit/git_repo.h"

namespace tjr::cli {
namespace {
namespace fs = std::filesystem;

using testing::Invoke;
using testing::Outcome;

std::string Runtime(const std::string& name, const std::string& image = "pytorch/pytorch:2.7") {
  std::string text = testkit::kTorchRuntime;
  auto replace = [&](const std::string& from, const std::string& to) {
    std::size_t at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  replace("name: torch-distributed\n", "name: " + name + "\n");
  replace("image: pytorch/pytorch:", "image: " + image + "-was-");
  return text;
}

std::string Job(const std::string& name, const std::string& runtime, int nodes = 1,
                const std::string& namespace_ = "team") {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + name +
         "\n  namespace: " + namespace_ + "\nspec:\n  runtimeRef:\n    name: " + runtime +
         "\n  trainer:\n    numNodes: " + std::to_string(nodes) + "\n";
}

std::string Slurp(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  return text.ok() ? *text : "<missing>";
}

class RenderGitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testkit::HaveGit()) GTEST_SKIP() << "git is not installed";
    repo_.Write("runtimes/torch.yaml", Runtime("torch"));
    repo_.Write("runtimes/other.yaml", Runtime("other"));
    repo_.Write("jobs/a.yaml", Job("a", "torch"));
    repo_.Write("jobs/b.yaml", Job("b", "torch"));
    repo_.Write("jobs/c.yaml", Job("c", "other"));
    ASSERT_EQ(repo_.Commit("base"), 0);
  }
  Outcome Render(std::vector<std::string> args) {
    args.insert(args.begin(), {"--repo", repo_.root()});
    return Invoke(RunRender, args);
  }
  std::string Out(const std::string& relative = "") const {
    return out_.Path("out") + (relative.empty() ? "" : "/" + relative);
  }
  testkit::GitRepo repo_;
  testkit::TempDir out_;
};

TEST_F(RenderGitTest, RevReadsTheRevisionNotTheWorkingTree) {
  repo_.Write("jobs/a.yaml", Job("a", "torch", 4));
  repo_.Write("jobs/d.yaml", Job("d", "torch"));
  Outcome head = Render({"--rev", "HEAD", "-o", "-"});
  ASSERT_EQ(head.exit_code, 0) << head.err;
  EXPECT_EQ(head.out.find("  name: d\n"), std::string::npos);
  EXPECT_EQ(head.out.find("replicas: 4"), std::string::npos);
  Outcome work = Render({"--since", "HEAD", "-o", "-"});
  ASSERT_EQ(work.exit_code, 0) << work.err;
  EXPECT_NE(work.out.find("\n  name: d\n"), std::string::npos) << work.out;
  // Names in messages are repository paths.
  repo_.Write("jobs/bad.yaml", "a: [\n");
  ASSERT_EQ(repo_.Commit(), 0);
  Outcome broken = Render({"--rev", "HEAD", "-o", "-"});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_EQ(broken.err.rfind("jobs/bad.yaml:", 0), 0u) << broken.err;
}

TEST_F(RenderGitTest, BareRepositories) {
  ASSERT_EQ(repo_.Git("clone -q --bare . bare.git"), 0);
  Outcome bare = Invoke(RunRender, {"--repo", repo_.Path("bare.git"), "--rev", "main", "jobs", "runtimes"});
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_NE(bare.out.find("kind: JobSet"), std::string::npos);
  Outcome no_worktree = Invoke(RunRender, {"--repo", repo_.Path("bare.git"), "--since", "main"});
  EXPECT_EQ(no_worktree.exit_code, 2);
  EXPECT_NE(no_worktree.err.find("bare repository has no working tree"), std::string::npos);
}

TEST_F(RenderGitTest, IncludeAndExcludeComeFromTheSameRevision) {
  repo_.Write(".tjrender.yaml", "exclude:\n  - jobs/b.yaml\n");
  ASSERT_EQ(repo_.Commit(), 0);
  repo_.Write(".tjrender.yaml", "include: [runtimes]\n");  // not committed
  Outcome run = Render({"--rev", "HEAD", "-o", "-"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\n  name: a\n"), std::string::npos);
  EXPECT_EQ(run.out.find("\n  name: b\n"), std::string::npos);
  Outcome work = Render({"--since", "HEAD", "-v", "--list-affected"});
  EXPECT_NE(work.err.find("differs from HEAD: every TrainJob is affected"), std::string::npos)
      << work.err;
  Outcome bad = Invoke(RunRender, {repo_.root(), "-o", "-"});
  EXPECT_EQ(bad.exit_code, 0) << bad.err;
  EXPECT_EQ(bad.out, "");  // include: runtimes only, so no TrainJob
}

TEST_F(RenderGitTest, AffectedSets) {
  repo_.Write("jobs/a.yaml", Job("a", "torch", 2));
  ASSERT_EQ(repo_.Commit(), 0);
  EXPECT_EQ(Render({"--since", "HEAD~1", "--list-affected"}).out, "team/a\n");
  repo_.Write("runtimes/torch.yaml", Runtime("torch", "example/torch"));
  ASSERT_EQ(repo_.Commit(), 0);
  EXPECT_EQ(Render({"--since", "HEAD~1", "--list-affected"}).out, "team/a\nteam/b\n");
  EXPECT_EQ(Render({"--since", "HEAD~2", "--list-affected"}).out, "team/a\nteam/b\n");
  EXPECT_EQ(Invoke(RunCheck, {"--repo", repo_.root(), "--since", "HEAD~1", "--list-affected"}).out,
            "team/a\nteam/b\n");
  // Uncommitted: a runtime appearing for a TrainJob that had none.
  repo_.Write("jobs/e.yaml", Job("e", "late"));
  ASSERT_EQ(repo_.Commit(), 0);
  repo_.Write("runtimes/late.yaml", Runtime("late"));
  EXPECT_EQ(Render({"--since", "HEAD", "--list-affected"}).out, "team/e\n");
  Outcome check = Invoke(RunCheck, {"--repo", repo_.root(), "--since", "HEAD"});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  Outcome at_head = Invoke(RunCheck, {"--repo", repo_.root(), "--rev", "HEAD"});
  EXPECT_EQ(at_head.exit_code, 1);  // e's runtime is not committed
}

TEST_F(RenderGitTest, OutFolderUnderSinceKeepsUntouchedAndRemovesDeleted) {
  ASSERT_EQ(Render({"--rev", "HEAD", "--out", Out()}).exit_code, 0);
  const std::string c_before = Slurp(Out("team/c.yaml"));
  ASSERT_NE(c_before, "<missing>");
  auto c_time = fs::last_write_time(Out("team/c.yaml"));
  fs::remove(repo_.Path("jobs/b.yaml"));
  repo_.Write("jobs/a.yaml", Job("a", "torch", 3));
  ASSERT_EQ(repo_.Commit(), 0);
  Outcome since = Render({"--since", "HEAD~1", "--out", Out(), "-v"});
  ASSERT_EQ(since.exit_code, 0) << since.err;
  EXPECT_NE(since.err.find("1 file(s) written, 0 unchanged, 1 removed"), std::string::npos)
      << since.err;
  EXPECT_EQ(Slurp(Out("team/c.yaml")), c_before);
  EXPECT_EQ(fs::last_write_time(Out("team/c.yaml")), c_time);
  EXPECT_FALSE(fs::exists(Out("team/b.yaml")));
  // The folder is what a full render of HEAD gives.
  testkit::TempDir full;
  ASSERT_EQ(Render({"--rev", "HEAD", "--out", full.Path("o")}).exit_code, 0);
  for (const char* file : {"team/a.yaml", "team/c.yaml", ".tjrender-index"}) {
    EXPECT_EQ(Slurp(Out(file)), Slurp(full.Path("o") + "/" + file)) << file;
  }
}

TEST_F(RenderGitTest, OutputDoesNotDependOnJobs) {
  for (int i = 0; i < 40; ++i) {
    repo_.Write("jobs/many-" + std::to_string(i) + ".yaml",
                Job("m" + std::to_string(i), i % 2 ? "torch" : "other", 1 + i % 3,
                    "ns" + std::to_string(i % 4)));
  }
  ASSERT_EQ(repo_.Commit(), 0);
  testkit::TempDir one, four;
  ASSERT_EQ(Render({"--rev", "HEAD", "--out", one.Path("o"), "--jobs", "1"}).exit_code, 0);
  ASSERT_EQ(Render({"--rev", "HEAD", "--out", four.Path("o"), "--threads", "4"}).exit_code, 0);
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(one.Path("o"))) {
    if (!entry.is_regular_file()) continue;
    ++files;
    std::string relative = fs::relative(entry.path(), one.Path("o")).string();
    EXPECT_EQ(Slurp(entry.path().string()), Slurp(four.Path("o") + "/" + relative)) << relative;
  }
  EXPECT_EQ(files, 44u);  // 43 TrainJobs and the index
}

TEST_F(RenderGitTest, UnsafeNamesAreRefusedBeforeAnyPath) {
  repo_.Write("jobs/evil.yaml", Job("x", "torch", 1, "../../escape"));
  repo_.Write("jobs/upper.yaml", Job("Upper", "torch"));
  ASSERT_EQ(repo_.Commit(), 0);
  Outcome run = Render({"--rev", "HEAD", "--out", Out()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("jobs/upper.yaml: error: cannot write TrainJob \"Upper\" in namespace "
                         "\"team\": its name is not a DNS-1123 label"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("its namespace is not a DNS-1123 label"), std::string::npos);
  EXPECT_FALSE(fs::exists(out_.Path("escape")));
  EXPECT_FALSE(fs::exists(out_.root() + "/../escape"));
  // A run with input errors changes nothing in the output folder (issue 28).
  EXPECT_FALSE(fs::exists(Out("team/a.yaml")));
}

TEST_F(RenderGitTest, UsageErrors) {
  EXPECT_EQ(Render({"--list-affected"}).exit_code, 2);
  EXPECT_EQ(Render({"--rev", "HEAD", "-"}).exit_code, 2);
  EXPECT_EQ(Invoke(RunRender, {"--repo", repo_.root(), "jobs"}).exit_code, 2);  // --repo alone
  EXPECT_EQ(Render({"--rev", "no-such-rev"}).exit_code, 2);
  EXPECT_EQ(Render({"--rev", "HEAD", "../outside"}).exit_code, 2);
  EXPECT_EQ(Render({"--since", "HEAD", "--rev", "HEAD", "--list-affected"}).out, "");
}

TEST(ProgressTest, LineAndQuietness) {
  EXPECT_EQ(Progress::Line(250, 1000, 2.0), "rendered 250/1000 TrainJobs, 125/s");
  EXPECT_FALSE(Progress::Wanted(true));
  // Under the test runner stderr is no terminal: nothing is drawn.
  ::testing::internal::CaptureStderr();
  {
    Progress progress(3, Progress::Wanted(false));
    progress.Tick();
    progress.Tick();
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace tjr::cli
