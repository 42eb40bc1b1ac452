#include "batch/output_tree.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "testkit/temp_dir.h"

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
  testkit::TempDir dir;
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
  // No staging folder left, inside DIR (older versions) or beside it.
  for (const auto& entry : fs::directory_iterator(out)) {
    EXPECT_EQ(entry.path().filename().string().find(".tjrender-staging-"), std::string::npos) << entry.path();
  }
  for (const auto& entry : fs::directory_iterator(dir.root())) {
    EXPECT_EQ(entry.path().filename().string().find(".out.tjrender-"), std::string::npos) << entry.path();
  }
}

TEST(OutputTreeTest, TheIndexIsRewrittenOnlyWhenItWouldChange) {
  testkit::TempDir dir;
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
  testkit::TempDir dir;
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
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  dir.Write("victim.yaml", "keep\n");
  dir.Write("out/.tjrender-index", "../victim.yaml\n/etc/passwd\na/../../victim.yaml\n");
  dir.Link("out/evil", dir.root());
  auto tree = OpenOrDie(out);
  Status put = tree->Put("evil/victim.yaml", "overwritten\n");
  ASSERT_FALSE(put.ok());  // the link is refused, not followed
  EXPECT_NE(put.error().message.find("exists and is not a folder"), std::string::npos);
  ASSERT_TRUE(tree->Commit(true).ok());
  EXPECT_EQ(Slurp(dir.Path("victim.yaml")), "keep\n");
  EXPECT_TRUE(fs::is_symlink(out + "/evil"));  // the user's link is kept as a link
}

// The prune step once unlinked DIR/<ns>/<job>.yaml through a namespace
// folder replaced by a symbolic link: a file outside DIR deleted.
TEST(OutputTreeTest, PruningNeverFollowsALink) {
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("team/job.yaml", "1\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  dir.Write("elsewhere/job.yaml", "not tjrender's\n");
  fs::remove_all(out + "/team");
  dir.Link("out/team", dir.Path("elsewhere"));
  auto tree = OpenOrDie(out);
  Result<OutputStats> stats = tree->Commit(true);  // team/job.yaml is stale
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(Slurp(dir.Path("elsewhere/job.yaml")), "not tjrender's\n");
  EXPECT_TRUE(fs::is_symlink(out + "/team"));
}

// Flyte Pod files (<ns>/<task>.pod.yaml) were never indexed, so never pruned.
TEST(OutputTreeTest, FlytePodFilesArePrunedToo) {
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("flyte/workflows.train.fit_model.pod.yaml", "pod\n").ok());
    ASSERT_TRUE(tree->Put("flyte/job.yaml", "job\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  EXPECT_EQ(Slurp(out + "/.tjrender-index"), "# tjrender output index 1: files tjrender wrote here\n"
                                             "flyte/job.yaml\nflyte/workflows.train.fit_model.pod.yaml\n");
  auto tree = OpenOrDie(out);
  ASSERT_TRUE(tree->Put("flyte/job.yaml", "job\n").ok());
  Result<OutputStats> stats = tree->Commit(true);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->removed, 1u);
  EXPECT_FALSE(fs::exists(out + "/flyte/workflows.train.fit_model.pod.yaml"));
}

// The tree is replaced as a whole: until Commit's one exchange nothing of
// DIR changes, the user's files (links included, as links) come along,
// unchanged outputs keep their inode, and no staging folder stays behind.
TEST(OutputTreeTest, TheFolderIsSwappedWholeAndKeepsWhatIsNotTjrenders) {
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/same.yaml", "same\n").ok());
    ASSERT_TRUE(tree->Put("a/changes.yaml", "old\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  dir.Write("out/README.md", "mine\n");
  dir.Write("out/docs/deep/notes.txt", "mine too\n");
  dir.Link("out/docs/link", "/etc/hostname");
  struct stat same_before {};
  ASSERT_EQ(::stat((out + "/a/same.yaml").c_str(), &same_before), 0);
  struct stat dir_before {};
  ASSERT_EQ(::stat(out.c_str(), &dir_before), 0);
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/same.yaml", "same\n").ok());
    ASSERT_TRUE(tree->Put("a/changes.yaml", "new\n").ok());
    ASSERT_TRUE(tree->Put("b/added.yaml", "added\n").ok());
    // Staged beside DIR, not in it.
    EXPECT_EQ(Slurp(out + "/a/changes.yaml"), "old\n");
    EXPECT_FALSE(fs::exists(out + "/b"));
    Result<OutputStats> stats = tree->Commit(true);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->written, 2u);
    EXPECT_EQ(stats->unchanged, 1u);
  }
  struct stat dir_after {};
  ASSERT_EQ(::stat(out.c_str(), &dir_after), 0);
  EXPECT_NE(dir_before.st_ino, dir_after.st_ino);  // a new folder took DIR's name
  EXPECT_TRUE(S_ISDIR(dir_after.st_mode));
  struct stat same_after {};
  ASSERT_EQ(::stat((out + "/a/same.yaml").c_str(), &same_after), 0);
  EXPECT_EQ(same_before.st_ino, same_after.st_ino);
  EXPECT_EQ(Slurp(out + "/a/changes.yaml"), "new\n");
  EXPECT_EQ(Slurp(out + "/b/added.yaml"), "added\n");
  EXPECT_EQ(Slurp(out + "/README.md"), "mine\n");
  EXPECT_EQ(Slurp(out + "/docs/deep/notes.txt"), "mine too\n");
  EXPECT_TRUE(fs::is_symlink(out + "/docs/link"));
  for (const auto& entry : fs::directory_iterator(dir.root())) {
    EXPECT_EQ(entry.path().filename().string().find(".tjrender-"), std::string::npos) << entry.path();
  }
  // Nothing to change: DIR is left alone, inode and all.
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/same.yaml", "same\n").ok());
    ASSERT_TRUE(tree->Put("a/changes.yaml", "new\n").ok());
    ASSERT_TRUE(tree->Put("b/added.yaml", "added\n").ok());
    ASSERT_TRUE(tree->Commit(true).ok());
  }
  struct stat dir_again {};
  ASSERT_EQ(::stat(out.c_str(), &dir_again), 0);
  EXPECT_EQ(dir_after.st_ino, dir_again.st_ino);
}

TEST(OutputTreeTest, WithoutCommitDirIsUntouched) {
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  {
    auto tree = OpenOrDie(out);
    ASSERT_TRUE(tree->Put("a/x.yaml", "1\n").ok());
  }
  EXPECT_FALSE(fs::exists(out));
  for (const auto& entry : fs::directory_iterator(dir.root())) {
    EXPECT_EQ(entry.path().filename().string().find(".tjrender-"), std::string::npos) << entry.path();
  }
}

TEST(OutputTreeTest, StagingOfDeadRunsIsCleared) {
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  // pid 2^22+1 is above Linux's pid_max limit: never alive.
  dir.Write("out/.tjrender-staging-4194305/a/x.yaml", "half\n");  // where older versions staged
  dir.Write(".out.tjrender-4194305/a/x.yaml", "half\n");
  dir.Link(".out.tjrender-4194306", "/etc");  // a link is removed, never followed
  auto tree = OpenOrDie(out);
  EXPECT_FALSE(fs::exists(dir.Path(".out.tjrender-4194305")));
  // Inside DIR only at Commit: a run that does not commit (input errors)
  // leaves DIR untouched.
  EXPECT_TRUE(fs::exists(out + "/.tjrender-staging-4194305"));
  ASSERT_TRUE(tree->Commit(true).ok());
  EXPECT_FALSE(fs::exists(out + "/.tjrender-staging-4194305"));
  EXPECT_FALSE(fs::is_symlink(dir.Path(".out.tjrender-4194306")));
  EXPECT_TRUE(fs::exists("/etc/hostname"));
}

TEST(OutputTreeTest, OneWriterAtATimeTheNextFailsNamingTheFirst) {
  testkit::TempDir dir;
  const std::string out = dir.Path("out");
  auto first = OpenOrDie(out);
  ASSERT_TRUE(fs::exists(dir.Path(".out.tjrender.lock")));
  // flock(2) locks an open file: a second Open in this process waits as
  // another process would.
  Result<std::unique_ptr<OutputTree>> second = OutputTree::Open(out, OutputOptions{0.05});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().category, Category::kInput);
  EXPECT_NE(second.error().message.find("process " + std::to_string(::getpid())), std::string::npos)
      << second.error().message;
  ASSERT_TRUE(first->Put("a/one.yaml", "1\n").ok());
  ASSERT_TRUE(first->Commit(true).ok());
  first.reset();  // the lock goes with its holder
  EXPECT_FALSE(fs::exists(dir.Path(".out.tjrender.lock")));
  auto third = OpenOrDie(out);
  ASSERT_NE(third, nullptr);
}

TEST(OutputTreeTest, StagingFoldersAndLockAreLeftOutOfInputs) {
  testkit::TempDir dir;
  std::vector<source::OutputFile> entries = OutputFolderEntries(dir.Path("out"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name_prefix, ".out.tjrender");
  dir.Write(".out.tjrender-999999999/team/job.yaml", "kind: JobSet\n");
  source::DiskTree tree(false, entries);
  Result<std::vector<source::DirEntry>> listed = tree.List(dir.Path(""));
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_FALSE((*listed)[0].left_out.empty());
}

}  // namespace
}  // namespace tjr::batch
