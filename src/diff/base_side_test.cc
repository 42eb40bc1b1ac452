#include "diff/base_side.h"

#include <gtest/gtest.h>

#include "source/git_scratch.h"

namespace tjr::diff {
namespace {

#define REQUIRE_GIT() \
  if (!source::HaveGit()) GTEST_SKIP() << "git is not installed"

std::string Runtime(const std::string& name) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata:\n  name: " + name +
         "\nspec: {}\n";
}

std::string Job(const std::string& name, const std::string& runtime) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + name +
         "\n  namespace: default\nspec:\n  runtimeRef:\n    name: " + runtime + "\n";
}

std::vector<std::string> Ids(const source::ManifestSet& set) {
  std::vector<std::string> ids;
  for (const source::Manifest& m : set.manifests) ids.push_back(m.id.kind + " " + m.id.name + " " + m.file);
  return ids;
}

TEST(LoadBaseSide, TheWantedTrainJobsAndTheRuntimesTheyReferenceAtBase) {
  REQUIRE_GIT();
  source::GitScratch repo;
  repo.Write("runtimes/one.yaml", Runtime("one"));
  repo.Write("runtimes/two.yaml", Runtime("two"));
  repo.Write("jobs/a.yaml", Job("a", "one"));
  repo.Write("jobs/b.yaml", Job("b", "two"));
  repo.Write("jobs/c.yaml", Job("c", "one") + "---\n" + Job("d", "two"));
  ASSERT_EQ(repo.Commit(), 0);
  Result<std::unique_ptr<source::GitTree>> git = source::OpenGitRevision(repo.root(), "HEAD");
  ASSERT_TRUE(git.ok()) << git.error().ToString();
  source::FilteredTree tree(**git, ".tjrender.yaml", ".", {});
  // HEAD points a at runtime two: BASE's a still needs one.
  BaseSource base{tree, **git, {"."}, {"jobs/a.yaml"}};
  source::ManifestSet set = LoadBaseSide(base, {"default/a"}, {}, nullptr);
  EXPECT_TRUE(set.diagnostics.empty());
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"TrainJob a jobs/a.yaml", "ClusterTrainingRuntime one runtimes/one.yaml"}));

  // A TrainJob in an unchanged file with another one, and one BASE lacks.
  set = LoadBaseSide(base, {"default/d", "default/new"}, {}, nullptr);
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"TrainJob d jobs/c.yaml", "ClusterTrainingRuntime two runtimes/two.yaml"}));
}

TEST(LoadBaseSide, RecordsUnchangedFilesInTheCacheAndReadsTheSameSetThroughIt) {
  REQUIRE_GIT();
  source::GitScratch repo;
  repo.Write("runtimes/one.yaml", Runtime("one"));
  repo.Write("jobs/a.yaml", Job("a", "one"));
  repo.Write("jobs/b.yaml", Job("b", "one"));
  ASSERT_EQ(repo.Commit(), 0);
  Result<std::unique_ptr<source::GitTree>> git = source::OpenGitRevision(repo.root(), "HEAD");
  ASSERT_TRUE(git.ok());
  source::FilteredTree tree(**git, ".tjrender.yaml", ".", {});
  batch::InventoryCache cache = batch::InventoryCache::Load(repo.Path("cache"), "ctx");
  BaseSource base{tree, **git, {"."}, {}};
  source::ManifestSet first = LoadBaseSide(base, {"default/b"}, {}, &cache);
  EXPECT_EQ(cache.size(), 3u) << "every unchanged file's entries were recorded";
  source::ManifestSet second = LoadBaseSide(base, {"default/b"}, {}, &cache);
  EXPECT_EQ(Ids(first), Ids(second));
  EXPECT_EQ(Ids(second), (std::vector<std::string>{"TrainJob b jobs/b.yaml", "ClusterTrainingRuntime one runtimes/one.yaml"}));
}

}  // namespace
}  // namespace tjr::diff
