// The render use case through its library entry point, as the CLI, the
// integrations and tests call it: no flags, no printing.
#include "app/render_repository.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>


#include "testkit/temp_dir.h"

namespace tjr::app {
namespace {
namespace fs = std::filesystem;

using testkit::SampleRepo;

class Recorder final : public RenderSink {
 public:
  void Data(std::string_view bytes) override { data.append(bytes); }
  void Problem(const Diagnostic& problem) override { problems.push_back(problem.ToString()); }
  void Note(std::string_view text) override { notes.emplace_back(text); }
  void ProgressStart(std::size_t total) override { progress_total = total; }
  void ProgressTick() override { ++ticks; }

  std::string data;
  std::vector<std::string> problems;
  std::vector<std::string> notes;
  std::size_t progress_total = 0;
  std::size_t ticks = 0;
};

class RenderRepositoryTest : public ::testing::Test {
 protected:
  // The sample repository copied where the test may change it.
  std::string CopyOfSample() {
    fs::copy(SampleRepo(), root_ / "repo", fs::copy_options::recursive);
    return (root_ / "repo").string();
  }

  static std::vector<std::string> Rules(const Findings& findings) {
    std::vector<std::string> rules;
    for (const report::Finding& f : findings.findings()) rules.push_back(f.rule);
    return rules;
  }
  static bool Has(const std::vector<std::string>& rules, const std::string& rule) {
    return std::find(rules.begin(), rules.end(), rule) != rules.end();
  }

  testkit::TempDir temp_{"app-render"};
  const fs::path root_ = temp_.root();
};

TEST_F(RenderRepositoryTest, TheSampleRepositoryRendersToTheStream) {
  RenderRequest request;
  request.source.paths = {SampleRepo()};
  request.objects = ObjectsTo::kStream;
  Findings findings;
  Recorder sink;
  RenderOutcome outcome = RenderRepository(request, findings, sink);
  EXPECT_EQ(outcome.end, RenderEnd::kRendered);
  EXPECT_FALSE(outcome.input_error);
  EXPECT_TRUE(sink.problems.empty());
  EXPECT_NE(sink.data.find("kind: JobSet"), std::string::npos);
  EXPECT_NE(sink.data.find("\n---\n"), std::string::npos);
  EXPECT_TRUE(Rules(findings).empty()) << "the sample repository is clean";
  EXPECT_FALSE(findings.has_errors());
  EXPECT_GT(outcome.train_jobs, 0u);
  EXPECT_EQ(sink.progress_total, outcome.train_jobs);
  EXPECT_EQ(sink.ticks, outcome.train_jobs);
}

TEST_F(RenderRepositoryTest, TheThreadCountChangesNoByte) {
  auto run = [](unsigned threads, bool json) {
    RenderRequest request;
    request.source.paths = {SampleRepo()};
    request.objects = ObjectsTo::kStream;
    request.threads = threads;
    request.json = json;
    Findings findings;
    Recorder sink;
    RenderRepository(request, findings, sink);
    std::string all = sink.data;
    for (const report::Finding& f : findings.findings()) all += f.diagnostic.ToString() + "\n";
    return all;
  };
  EXPECT_EQ(run(1, false), run(4, false));
  EXPECT_EQ(run(1, true), run(3, true));
}

TEST_F(RenderRepositoryTest, TheRepositorysIgnoreRulesApply) {
  // The sample is clean: a TrainJob of its own draws a warning the cluster
  // admits (num-nodes-zero: Jobs of parallelism 0 are valid, they start no pods).
  std::string repo = CopyOfSample();
  std::ofstream(fs::path(repo) / "trainjobs" / "zero-nodes.yaml")
      << "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: paused\n"
         "  namespace: ml-team\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n"
         "    numNodes: 0\n";
  {
    Findings warned;
    Recorder sink;
    RenderRequest request;
    request.source.paths = {repo};
    RenderRepository(request, warned, sink);
    ASSERT_TRUE(Has(Rules(warned), "num-nodes-zero"));
  }
  std::ofstream(fs::path(repo) / ".tjrender.yaml", std::ios::app)
      << "ignore:\n- rule: num-nodes-zero\n  reason: a TrainJob kept paused on purpose\n";
  RenderRequest request;
  request.source.paths = {repo};
  Findings findings;
  Recorder sink;
  RenderOutcome outcome = RenderRepository(request, findings, sink);
  EXPECT_EQ(outcome.end, RenderEnd::kRendered);
  EXPECT_FALSE(Has(Rules(findings), "num-nodes-zero"));
  EXPECT_FALSE(findings.has_errors());
  EXPECT_GT(findings.results().ignored, 0u);
  EXPECT_TRUE(sink.data.empty()) << "ObjectsTo::kNowhere writes nothing";
}

TEST_F(RenderRepositoryTest, AFolderIsWrittenThenCheckedThenFoundStale) {
  RenderRequest request;
  request.source.paths = {SampleRepo()};
  request.objects = ObjectsTo::kFolder;
  request.out_dir = (root_ / "rendered").string();
  {
    Findings findings;
    Recorder sink;
    RenderOutcome outcome = RenderRepository(request, findings, sink);
    ASSERT_EQ(outcome.end, RenderEnd::kRendered);
    EXPECT_TRUE(sink.data.empty());
    EXPECT_TRUE(sink.problems.empty());
  }
  std::vector<fs::path> written;
  for (const auto& entry : fs::recursive_directory_iterator(root_ / "rendered")) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") written.push_back(entry.path());
  }
  ASSERT_FALSE(written.empty());

  request.objects = ObjectsTo::kFolderCheck;
  request.rerun_command = "`tjrender render`";
  {
    Findings findings;
    Recorder sink;
    RenderRepository(request, findings, sink);
    EXPECT_FALSE(Has(Rules(findings), "rendered-stale"));
    EXPECT_FALSE(Has(Rules(findings), "rendered-missing"));
  }
  std::ofstream(written.front(), std::ios::app) << "# edited by hand\n";
  {
    Findings findings;
    Recorder sink;
    RenderRepository(request, findings, sink);
    EXPECT_TRUE(Has(Rules(findings), "rendered-stale"));
    EXPECT_TRUE(findings.has_errors());
  }
}

TEST_F(RenderRepositoryTest, AnUnsupportedTargetIsRefusedAsAProblem) {
  RenderRequest request;
  request.source.paths = {SampleRepo()};
  request.target = "v9.9";
  Findings findings;
  Recorder sink;
  RenderOutcome outcome = RenderRepository(request, findings, sink);
  EXPECT_EQ(outcome.end, RenderEnd::kRefused);
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_EQ(sink.problems[0].rfind("error: unsupported target 'v9.9' (supported: trainer-v2.1, ", 0), 0u)
      << sink.problems[0];
  EXPECT_TRUE(findings.findings().empty());
}

TEST_F(RenderRepositoryTest, TheRepositorysTargetIsNoted) {
  std::string repo = CopyOfSample();
  std::ofstream(fs::path(repo) / ".tjrender.yaml") << "target: v2.1.0\n";  // the sample's, spelled as a release
  RenderRequest request;
  request.source.paths = {repo};
  Findings findings;
  Recorder sink;
  RenderOutcome outcome = RenderRepository(request, findings, sink);
  EXPECT_EQ(outcome.end, RenderEnd::kRendered);
  ASSERT_FALSE(sink.notes.empty());
  EXPECT_EQ(sink.notes[0].rfind("target v2.1.0 from ", 0), 0u) << sink.notes[0];
}

}  // namespace
}  // namespace tjr::app
