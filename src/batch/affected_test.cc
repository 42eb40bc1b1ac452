#include "batch/affected.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/file.h"

#include "source/disk_tree.h"
#include "testkit/git_repo.h"

namespace tjr::batch {
namespace {




std::string Runtime(const std::string& name, const std::string& image = "torch:1") {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata:\n"
         "  name: " + name + "\nspec:\n  template:\n    spec:\n      replicatedJobs:\n"
         "      - name: node\n        template:\n          spec:\n            template:\n"
         "              spec:\n                containers:\n                - name: node\n"
         "                  image: " + image + "\n";
}

std::string Job(const std::string& name, const std::string& runtime, int nodes = 1) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + name +
         "\nspec:\n  runtimeRef:\n    name: " + runtime + "\n  trainer:\n    numNodes: " +
         std::to_string(nodes) + "\n";
}

struct Found {
  std::vector<std::string> affected;
  std::vector<std::string> removed;
  std::vector<std::string> runtimes;  // runtimes in the manifest set
  std::vector<std::string> changed_runtimes;
  std::size_t total = 0;
  std::size_t parsed = 0;
};

// FindAffected between `base` and `head` ("" = the working tree).
Found Affected(const testkit::GitRepo& repo, const std::string& base, const std::string& head,
               InventoryCache* cache = nullptr, std::vector<std::string> paths = {"."}) {
  Found found;
  auto base_git = source::OpenGitRevision(repo.root(), base);
  EXPECT_TRUE(base_git.ok());
  if (!base_git.ok()) return found;
  source::DiskTree disk;
  source::RootedTree workdir(disk, repo.root());
  std::unique_ptr<source::GitTree> head_git;
  if (!head.empty()) head_git = std::move(source::OpenGitRevision(repo.root(), head).value());
  const source::Tree& head_tree = head_git ? static_cast<const source::Tree&>(*head_git) : workdir;
  source::FilteredTree base_filtered(**base_git, ".tjrender.yaml", ".", {});
  source::FilteredTree head_filtered(head_tree, ".tjrender.yaml", ".", {});
  SinceSources sources{base_filtered, **base_git, head_filtered, head_git.get(), paths,
                       [&] { return source::ChangedPaths(repo.root(), base, head, paths); }};
  Result<AffectedSet> found_set = FindAffected(sources, source::LoadOptions(), cache);
  EXPECT_TRUE(found_set.ok());
  if (!found_set.ok()) return found;
  AffectedSet& set = *found_set;
  EXPECT_TRUE(set.manifests.diagnostics.empty())
      << set.manifests.diagnostics.front().ToString();
  for (const Entry& e : set.affected) found.affected.push_back(e.id());
  for (const Entry& e : set.removed) found.removed.push_back(e.id());
  for (const source::Manifest& m : set.manifests.manifests) {
    if (m.id.kind != "TrainJob") found.runtimes.push_back(m.id.name);
  }
  found.changed_runtimes = set.changed_runtimes;
  found.total = set.total_trainjobs;
  found.parsed = set.files_parsed;
  // What is loaded is exactly what is affected, plus runtimes.
  std::vector<std::string> loaded;
  for (const source::Manifest& m : set.manifests.manifests) {
    if (m.id.kind == "TrainJob") loaded.push_back(m.id.namespace_ + "/" + m.id.name);
  }
  std::sort(loaded.begin(), loaded.end());
  EXPECT_EQ(loaded, found.affected);
  return found;
}

using Names = std::vector<std::string>;

class AffectedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testkit::HaveGit()) GTEST_SKIP() << "git is not installed";
    repo_.Write("runtimes/torch.yaml", Runtime("torch"));
    repo_.Write("runtimes/other.yaml", Runtime("other"));
    repo_.Write("jobs/a.yaml", Job("a", "torch"));
    repo_.Write("jobs/b.yaml", Job("b", "torch"));
    repo_.Write("jobs/c.yaml", Job("c", "other"));
    repo_.Write("jobs/d.yaml", Job("d", "late"));
    ASSERT_EQ(repo_.Commit("base"), 0);
  }
  testkit::GitRepo repo_;
};

TEST_F(AffectedTest, ATrainJobChange) {
  repo_.Write("jobs/a.yaml", Job("a", "torch", 2));
  ASSERT_EQ(repo_.Commit(), 0);
  Found found = Affected(repo_, "HEAD~1", "HEAD");
  EXPECT_EQ(found.affected, Names{"default/a"});
  EXPECT_EQ(found.runtimes, Names{"torch"});  // what a needs, nothing else
  EXPECT_TRUE(found.changed_runtimes.empty());
  EXPECT_EQ(found.total, 4u);
}

TEST_F(AffectedTest, AffectedTrainJobsComeInPipelineOrderNotFileOrder) {
  // In file order the TrainJobs are a, b, (c, d,) q, m, k; a changed file
  // (x.yaml: q, m) and a changed runtime (torch: a, b, q, k) both add some.
  const std::string x = Job("q", "torch") + "---\n" + Job("m", "other");
  repo_.Write("jobs/x.yaml", x);
  repo_.Write("jobs/y.yaml", Job("k", "torch"));
  ASSERT_EQ(repo_.Commit(), 0);
  repo_.Write("runtimes/torch.yaml", Runtime("torch", "torch:2"));
  repo_.Write("jobs/x.yaml", x + "  suspend: true\n");
  ASSERT_EQ(repo_.Commit(), 0);
  Found found = Affected(repo_, "HEAD~1", "HEAD");
  EXPECT_EQ(found.affected, (Names{"default/a", "default/b", "default/k", "default/m", "default/q"}));
}

TEST_F(AffectedTest, ARuntimeChangeReachesItsTrainJobsOnly) {
  repo_.Write("runtimes/torch.yaml", Runtime("torch", "torch:2"));
  ASSERT_EQ(repo_.Commit(), 0);
  Found found = Affected(repo_, "HEAD~1", "HEAD");
  EXPECT_EQ(found.affected, (Names{"default/a", "default/b"}));
  EXPECT_EQ(found.changed_runtimes, Names{"ClusterTrainingRuntime/torch"});
}

TEST_F(AffectedTest, ARuntimeRewrittenAsTheSameDataChangesNothing) {
  repo_.Write("runtimes/torch.yaml", "# a comment\n" + Runtime("torch"));
  ASSERT_EQ(repo_.Commit(), 0);
  Found found = Affected(repo_, "HEAD~1", "HEAD");
  EXPECT_TRUE(found.affected.empty());
  EXPECT_TRUE(found.changed_runtimes.empty());
}

TEST_F(AffectedTest, RuntimesAppearingDisappearingOrMoving) {
  repo_.Write("runtimes/late.yaml", Runtime("late"));
  ASSERT_EQ(repo_.Commit(), 0);
  EXPECT_EQ(Affected(repo_, "HEAD~1", "HEAD").affected, Names{"default/d"});
  std::filesystem::remove(repo_.Path("runtimes/other.yaml"));
  ASSERT_EQ(repo_.Commit(), 0);
  EXPECT_EQ(Affected(repo_, "HEAD~1", "HEAD").affected, Names{"default/c"});
  // Moved to another file unchanged: nothing to render.
  std::filesystem::rename(repo_.Path("runtimes/torch.yaml"), repo_.Path("runtimes/t2.yaml"));
  ASSERT_EQ(repo_.Commit(), 0);
  EXPECT_TRUE(Affected(repo_, "HEAD~1", "HEAD").affected.empty());
}

TEST_F(AffectedTest, RemovedAndRenamedTrainJobs) {
  std::filesystem::remove(repo_.Path("jobs/c.yaml"));
  repo_.Write("jobs/b.yaml", Job("b2", "torch"));
  ASSERT_EQ(repo_.Commit(), 0);
  Found found = Affected(repo_, "HEAD~1", "HEAD");
  EXPECT_EQ(found.affected, Names{"default/b2"});
  EXPECT_EQ(found.removed, (Names{"default/b", "default/c"}));
  EXPECT_EQ(found.total, 3u);
}

TEST_F(AffectedTest, TheWorkingTreeAndScope) {
  repo_.Write("jobs/b.yaml", Job("b", "torch", 3));
  repo_.Write("jobs/new.yaml", Job("new", "other"));
  Found found = Affected(repo_, "HEAD", "");
  EXPECT_EQ(found.affected, (Names{"default/b", "default/new"}));
  // Changes outside the paths rendered are not seen.
  Found scoped = Affected(repo_, "HEAD", "", nullptr, {"runtimes"});
  EXPECT_TRUE(scoped.affected.empty());
  EXPECT_EQ(scoped.total, 0u);
}

TEST_F(AffectedTest, TheCacheSparesParsingUnchangedFiles) {
  repo_.Write("jobs/a.yaml", Job("a", "torch", 2));
  ASSERT_EQ(repo_.Commit(), 0);
  const std::string path = repo_.Path(".git/tjrender-inventory");
  InventoryCache cold = InventoryCache::Load(path, "test");
  Found first = Affected(repo_, "HEAD~1", "HEAD", &cold);
  ASSERT_TRUE(cold.Save().ok());
  InventoryCache warm = InventoryCache::Load(path, "test");
  EXPECT_EQ(warm.size(), 6u);  // 5 unchanged blobs at base, a.yaml at head
  Found second = Affected(repo_, "HEAD~1", "HEAD", &warm);
  EXPECT_EQ(first.affected, second.affected);
  EXPECT_EQ(first.runtimes, second.runtimes);
  EXPECT_EQ(first.parsed, 5u + 2u + 1u);  // unchanged, a.yaml on each side, torch's file
  EXPECT_EQ(second.parsed, 2u + 1u);
  // Another context (loader options) starts empty.
  EXPECT_EQ(InventoryCache::Load(path, "other").size(), 0u);
}

TEST_F(AffectedTest, ADamagedCacheCostsParsingNotCorrectness) {
  repo_.Write("runtimes/torch.yaml", Runtime("torch", "torch:2"));
  ASSERT_EQ(repo_.Commit(), 0);
  const std::string path = repo_.Path(".git/tjrender-inventory");
  InventoryCache cold = InventoryCache::Load(path, "test");
  Found first = Affected(repo_, "HEAD~1", "HEAD", &cold);
  ASSERT_TRUE(cold.Save().ok());
  InventoryCache warm = InventoryCache::Load(path, "test");
  Found second = Affected(repo_, "HEAD~1", "HEAD", &warm);
  // b.yaml's line names another kind, and the last line is torn.
  std::string text = ReadFile(path).value();
  const std::size_t b = text.find("\tTrainJob\tdefault\tb\t");
  ASSERT_NE(b, std::string::npos);
  text.replace(b + 1, 8, "TrainJ0b");
  text.resize(text.size() - 5);
  repo_.Write(".git/tjrender-inventory", text);
  InventoryCache damaged = InventoryCache::Load(path, "test");
  Found third = Affected(repo_, "HEAD~1", "HEAD", &damaged);
  for (const Found* found : {&second, &third}) {
    EXPECT_EQ(found->affected, first.affected);
    EXPECT_EQ(found->runtimes, first.runtimes);
    EXPECT_EQ(found->changed_runtimes, first.changed_runtimes);
    EXPECT_EQ(found->total, first.total);
  }
  EXPECT_EQ(first.affected, (Names{"default/a", "default/b"}));
  EXPECT_GT(third.parsed, second.parsed);  // b.yaml at least, parsed again
}

}  // namespace
}  // namespace tjr::batch
