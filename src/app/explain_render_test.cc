#include "app/explain_render.h"

#include <gtest/gtest.h>

#include "source/memory_tree.h"
#include "testkit/fixtures.h"

namespace tjr::app {
namespace {

class Recorder final : public RenderSink {
 public:
  void Data(std::string_view) override {}
  void Problem(const Diagnostic& problem) override { problems.push_back(problem.message); }
  void Note(std::string_view) override {}
  std::vector<std::string> problems;
};

std::string TrainJob(std::string_view namespace_, std::string_view name, std::string_view runtime) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + std::string(name) +
         "\n  namespace: " + std::string(namespace_) + "\nspec:\n  runtimeRef:\n    name: " + std::string(runtime) +
         "\n";
}

struct Explained {
  ExplainOutcome outcome;
  std::vector<std::string> problems;
};

// Explains `subject` in a repository of the torch runtime and three
// TrainJobs: ml/good, ml/broken (no such runtime), and `good` again in team.
Explained Explain(const std::string& subject) {
  source::MemoryTree tree;
  tree.Put("repo/runtime.yaml", testkit::kTorchRuntime);
  tree.Put("repo/good.yaml", TrainJob("ml", "good", "torch-distributed"));
  tree.Put("repo/broken.yaml", TrainJob("ml", "broken", "missing"));
  tree.Put("repo/team.yaml", TrainJob("team", "good", "torch-distributed"));
  ExplainRequest request;
  request.subject = subject;
  request.render.source.tree = &tree;
  request.render.source.paths = {"repo"};
  request.render.threads = 1;
  Recorder sink;
  Findings findings;
  Explained run{ExplainRendered(request, findings, sink), {}};
  run.problems = sink.problems;
  return run;
}

TEST(ExplainRenderedTest, ExplainsTheSubjectAloneWhateverTheOthersFindings) {
  Explained run = Explain("ml/good");
  ASSERT_EQ(run.outcome.explanations.size(), 1u);
  EXPECT_EQ(run.outcome.explanations[0].subject, "TrainJob ml/good");
  EXPECT_FALSE(run.outcome.subject_has_errors);  // ml/broken's error is not ml/good's
  EXPECT_FALSE(run.outcome.input_error);
}

TEST(ExplainRenderedTest, ASubjectRefusedBeforeRenderingSaysSo) {
  Explained run = Explain("ml/broken");
  EXPECT_TRUE(run.outcome.explanations.empty());
  EXPECT_TRUE(run.outcome.input_error);
  ASSERT_FALSE(run.problems.empty());
  EXPECT_NE(run.problems.back().find("TrainJob ml/broken is refused before the controller renders it"),
            std::string::npos)
      << run.problems.back();
}

TEST(ExplainRenderedTest, ANameInTwoNamespacesIsAmbiguous) {
  Explained run = Explain("good");
  EXPECT_TRUE(run.outcome.explanations.empty());
  ASSERT_FALSE(run.problems.empty());
  EXPECT_EQ(run.problems.back(),
            "good names 2 objects (TrainJob ml/good, TrainJob team/good): name one as namespace/name");
}

TEST(ExplainRenderedTest, AnUnknownSubjectIsAnInputError) {
  Explained run = Explain("ml/nobody");
  EXPECT_TRUE(run.outcome.input_error);
  ASSERT_FALSE(run.problems.empty());
  EXPECT_NE(run.problems.back().find("no TrainJob or Flyte task ml/nobody among the inputs"), std::string::npos);
}

}  // namespace
}  // namespace tjr::app
