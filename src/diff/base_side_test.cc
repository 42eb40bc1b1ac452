#include "diff/base_side.h"

#include <gtest/gtest.h>

#include "testkit/git_repo.h"

namespace tjr::diff {
namespace {

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

std::unique_ptr<source::GitTree> Open(const testkit::GitRepo& repo, const std::string& rev) {
  Result<std::unique_ptr<source::GitTree>> git = source::OpenGitRevision(repo.root(), rev);
  EXPECT_TRUE(git.ok()) << git.error().ToString();
  return git.ok() ? std::move(*git) : nullptr;
}

// BASE: runtimes one and two, a -> one, b -> two, c -> one and d -> two in
// one file. HEAD points a at two.
class LoadBaseSideTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testkit::HaveGit()) GTEST_SKIP() << "git is not installed";
    repo_.Write("runtimes/one.yaml", Runtime("one"));
    repo_.Write("runtimes/two.yaml", Runtime("two"));
    repo_.Write("jobs/a.yaml", Job("a", "one"));
    repo_.Write("jobs/b.yaml", Job("b", "two"));
    repo_.Write("jobs/c.yaml", Job("c", "one") + "---\n" + Job("d", "two"));
    ASSERT_EQ(repo_.Commit(), 0);
    repo_.Write("jobs/a.yaml", Job("a", "two"));
    ASSERT_EQ(repo_.Commit(), 0);
    base_git_ = Open(repo_, "HEAD~1");
    head_git_ = Open(repo_, "HEAD");
    ASSERT_TRUE(base_git_ && head_git_);
    base_tree_ = std::make_unique<source::FilteredTree>(*base_git_, ".tjrender.yaml", ".", source::PathFilter{});
  }
  // What HEAD loads for the affected set: the named files.
  source::ManifestSet Head(const std::vector<std::string>& files) {
    source::FilteredTree tree(*head_git_, ".tjrender.yaml", ".", {});
    return source::LoadManifests(tree, files);
  }
  BaseSource Base() { return {*base_tree_, *base_git_, {"."}, {"jobs/a.yaml"}}; }

  testkit::GitRepo repo_;
  std::unique_ptr<source::GitTree> base_git_;
  std::unique_ptr<source::GitTree> head_git_;
  std::unique_ptr<source::FilteredTree> base_tree_;
};

TEST_F(LoadBaseSideTest, ARuntimeOnlyBaseReferencesIsFoundInItsInventory) {
  // HEAD's a needs two; BASE's a needs one, which HEAD did not load.
  source::ManifestSet set =
      LoadBaseSide(Base(), {"default/a"}, Head({"jobs/a.yaml", "runtimes/two.yaml"}), {}, nullptr);
  EXPECT_TRUE(set.diagnostics.empty());
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"TrainJob a jobs/a.yaml", "ClusterTrainingRuntime one runtimes/one.yaml"}));
}

TEST_F(LoadBaseSideTest, UnchangedFilesAreReadWhereHeadReadThem) {
  // d shares an unchanged file with c; BASE lacks "new".
  source::ManifestSet set = LoadBaseSide(Base(), {"default/d", "default/new"},
                                         Head({"jobs/c.yaml", "runtimes/two.yaml"}), {}, nullptr);
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"TrainJob d jobs/c.yaml", "ClusterTrainingRuntime two runtimes/two.yaml"}));
  EXPECT_EQ(set.files, (std::vector<std::string>{"jobs/a.yaml", "jobs/c.yaml", "runtimes/two.yaml"}))
      << "the changed file, the TrainJob's and its runtime's, nothing else";
}

TEST_F(LoadBaseSideTest, TheInventoryFallbackFillsTheCache) {
  batch::InventoryCache cache = batch::InventoryCache::Load(repo_.Path("cache"), "ctx");
  source::ManifestSet head = Head({"jobs/a.yaml", "runtimes/two.yaml"});
  source::ManifestSet first = LoadBaseSide(Base(), {"default/a"}, head, {}, &cache);
  EXPECT_EQ(cache.size(), 4u) << "every unchanged file's entries were recorded";
  source::ManifestSet second = LoadBaseSide(Base(), {"default/a"}, head, {}, &cache);
  EXPECT_EQ(Ids(first), Ids(second));
  EXPECT_EQ(Ids(second), (std::vector<std::string>{"TrainJob a jobs/a.yaml", "ClusterTrainingRuntime one runtimes/one.yaml"}));
}

}  // namespace
}  // namespace tjr::diff
