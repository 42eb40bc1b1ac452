#include "batch/output_tree.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "base/file.h"
#include "source/scratch_dir.h"

namespace tjr::batch {
namespace {
namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  return text.ok() ? *text : "<missing>";
}

std::unique_ptr<OutputTree> OpenOrDie(const std::string& dir) {
  Result<std::unique_ptr<OutputTree>> tree = OutputTree::Open(dir);
  EXPECT_TRUE(tree.ok());
  return tree.ok() ? std::move(*tree) : nullptr;
}

TEST(OutputFileForTest, OnlyDnsLabelsBecomePaths) {
  EXPECT_EQ(*OutputFileFor("team-a", "job-1", ".yaml"), "team-a/job-1.yaml");
  EXPECT_TRUE(IsDns1123Label(std::string(63, 'a')));
  for (const char* bad : {"", "..", ".", "a/b", "../x", "A", "-a", "a-", "a_b", "a.b", "a\nb"}) {
    EXPECT_FALSE(IsDns1123Label(bad)) << bad;
    Result<std::string> refused = OutputFileFor(bad, "job", ".yaml");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().category, Category::kInput);
    EXPECT_FALSE(OutputFileFor("ns", bad, ".yaml").ok());
  }
  EXPECT_FALSE(IsDns1123Label(std::string(64, 'a')));
  EXPECT_NE(OutputFileFor("ns", "../../etc", ".yaml").error().message.find(
                "its name is not a DNS-1123 label"),
            std::string::npos);
}

TEST(OutputTreeTest, WritesRewritesOnlyChangesAndPrunesItsOwnFiles) {
  source::ScratchDir dir;
  const std::string out = dir.Path("out");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/one.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Put("a/two.yaml", "2\n").ok());
    ASSERT_TRUE(tree->Put("b/three.yaml", "3\n").ok());
    Result<OutputStats> stats = tree->Commit(true);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->written, 3u);
  }
  dir.Write("out/a/mine.yaml", "the user's\n");  // never indexed: never removed
  EXPECT_EQ(Slurp(out + "/.tjrender-index"),
            "# tjrender output index 1: files tjrender wrote here\na/one.yaml\na/two.yaml\n"
            "b/three.yaml\n");
  auto before = fs::last_write_time(out + "/a/one.yaml");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/one.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Put("a/two.yaml", "2 changed\n").ok());
    // Not installed before Commit: a run killed now changes nothing.
    EXPECT_EQ(Slurp(out + "/a/two.yaml"), "2\n");
    Result<OutputStats> stats = tree->Commit(true);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->written, 1u);
    EXPECT_EQ(stats->unchanged, 1u);
    EXPECT_EQ(stats->removed, 1u);
  }
  EXPECT_EQ(fs::last_write_time(out + "/a/one.yaml"), before);
  EXPECT_EQ(Slurp(out + "/a/two.yaml"), "2 changed\n");
  EXPECT_FALSE(fs::exists(out + "/b"));  // emptied namespace folder removed
  EXPECT_EQ(Slurp(out + "/a/mine.yaml"), "the user's\n");
  for (const auto& entry : fs::directory_iterator(out)) {
    EXPECT_EQ(entry.path().filename().string().find(".tjrender-staging"), std::string::npos);
  }
}

TEST(OutputTreeTest, TheIndexIsRewrittenOnlyWhenItWouldChange) {
  source::ScratchDir dir;
  const std::string out = dir.Path("out");
  const std::string index = out + "/.tjrender-index";
  const std::string canonical =
      "# tjrender output index 1: files tjrender wrote here\na/one.yaml\na/two.yaml\n";
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/one.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Put("a/two.yaml", "2\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  ASSERT_EQ(Slurp(index), canonical);
  // The same files again: the index file is not replaced (same inode).
  struct stat before {};
  ASSERT_EQ(::stat(index.c_str(), &before), 0);
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/one.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Put("a/two.yaml", "2 changed\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  struct stat after {};
  ASSERT_EQ(::stat(index.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);
  // An index in another form (unsorted, a stray line) is rewritten.
  dir.Write("out/.tjrender-index",
            "# tjrender output index 1: files tjrender wrote here\na/two.yaml\n../x\na/one.yaml\n");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/one.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Put("a/two.yaml", "2 changed\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  EXPECT_EQ(Slurp(index), canonical);
}

TEST(OutputTreeTest, WithoutPruneOnlyRemovedFilesGo) {
  source::ScratchDir dir;
  const std::string out = dir.Path("out");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/one.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Put("a/two.yaml", "2\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  auto tree = OpenOrDie(out);
  ASSERT_TRUE(tree->Put("a/new.yaml", "n\n").ok());
  tree->Remove("a/two.yaml");
  tree->Remove("a/never-written.yaml");
  Result<OutputStats> stats = tree->Commit(false);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->removed, 1u);
  EXPECT_EQ(Slurp(out + "/a/one.yaml"), "1\n");  // untouched TrainJob stays
  EXPECT_FALSE(fs::exists(out + "/a/two.yaml"));
  EXPECT_EQ(Slurp(out + "/.tjrender-index"),
            "# tjrender output index 1: files tjrender wrote here\na/new.yaml\na/one.yaml\n");
}

TEST(OutputTreeTest, AHostileIndexOrLinkCannotReachOutside) {
  source::ScratchDir dir;
  const std::string out = dir.Path("out");
  dir.Write("victim.yaml", "keep\n");
  dir.Write("out/.tjrender-index", "../victim.yaml\n/etc/passwd\na/../../victim.yaml\n");
  dir.Link("out/evil", dir.root());
  auto tree = OpenOrDie(out);
  ASSERT_TRUE(tree->Put("evil/victim.yaml", "overwritten\n").ok());
  Result<OutputStats> stats = tree->Commit(true);
  EXPECT_FALSE(stats.ok());  // the link is refused, not followed
  EXPECT_EQ(Slurp(dir.Path("victim.yaml")), "keep\n");
}

TEST(OutputTreeTest, StagingOfDeadRunsIsCleared) {
  source::ScratchDir dir;
  const std::string out = dir.Path("out");
  // pid 2^22+1 is above Linux's pid_max limit: never alive.
  dir.Write("out/.tjrender-staging-4194305/a/x.yaml", "half\n");
  auto tree = OpenOrDie(out);
  EXPECT_FALSE(fs::exists(out + "/.tjrender-staging-4194305"));
}

}  // namespace
}  // namespace tjr::batch
