// TreeIndexChanges (git_index_diff.cc) against libgit2's own
// git_diff_tree_to_index, which ChangedPaths used before, on indexes git
// wrote after random staged edits.
#include "source/git_index_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "testkit/git_repo.h"
#include "source/git_util.h"
#include "source/libgit2_oracle.h"

namespace tjr::source {
namespace {
namespace fs = std::filesystem;
using Paths = OraclePaths;

// What libgit2 reports, against the index git wrote.
Paths Libgit2Says(git_repository* repo, git_tree* base, Paths scope) {
  git_index* index = nullptr;
  EXPECT_EQ(git_repository_index(&index, repo), 0) << LastGitError();
  GitHandle<git_index, git_index_free> owned_index(index);
  return Libgit2Paths(std::move(scope), [&](git_diff** diff, const git_diff_options* options) {
    return git_diff_tree_to_index(diff, repo, base, index, options);
  });
}

// TreeIndexChanges and libgit2 agree on `base` for every scope; returns how
// many paths the whole repository has changed.
std::size_t ExpectAgreement(const testkit::GitRepo& repo, const std::string& base_rev, const std::string& context) {
  auto opened = OpenRepository(repo.root());
  EXPECT_TRUE(opened.ok());
  if (!opened.ok()) return 0;
  Result<PeeledTree> base = PeelToTree(opened->get(), base_rev);
  EXPECT_TRUE(base.ok());
  if (!base.ok()) return 0;
  Result<ReadIndex> read = ReadIndexFile(repo.Path(".git/index"));
  EXPECT_TRUE(read.ok()) << context << ": " << (read.ok() ? "" : read.error().ToString());
  if (!read.ok()) return 0;
  std::size_t total = 0;
  for (const Paths& scope : {Paths{}, Paths{"d1"}, Paths{"d2/s1", "d0/s0/f3.yaml"}, Paths{"d1/s2/f5.yaml/x"},
                             Paths{"absent"}}) {
    Paths ours;
    Status status = TreeIndexChanges(opened->get(), base->tree.get(), read->index, scope, &ours);
    EXPECT_TRUE(status.ok()) << context << ": " << (status.ok() ? "" : status.error().ToString());
    const Paths expected = Libgit2Says(opened->get(), base->tree.get(), scope);
    EXPECT_EQ(SortedUnique(ours), expected) << context << ", scope of " << scope.size();
    if (scope.empty()) total = expected.size();
  }
  return total;
}

TEST(GitIndexDiffTest, RandomStagedEditsAgreeWithLibgit2) {
  TJR_REQUIRE_GIT();
  std::mt19937 random(5);
  std::size_t changed = 0;
  for (int round = 0; round < 6; ++round) {
    testkit::GitRepo repo;
    std::vector<std::string> files;
    for (int i = 0; i < 60; ++i) {
      files.push_back(NestedFileName(i));
      repo.Write(files.back(), "value: " + std::to_string(i) + "\n");
    }
    repo.Write("top.yaml", "t\n");
    ASSERT_EQ(repo.Commit("base"), 0);
    // Half the rounds compare with an older commit: folders the last
    // commit left alone have a valid cache tree equal to BASE's.
    const bool older = round % 2 == 1;
    if (older) {
      repo.Write(NestedFileName(7), "second\n");
      ASSERT_EQ(repo.Commit("second"), 0);
    }
    for (int edit = 0; edit < 12; ++edit) {
      const std::string& file = files[random() % files.size()];
      const std::string n = std::to_string(edit);
      const unsigned kind = random() % 11;
      // A folder an earlier edit made a file holds nothing to edit.
      if (!fs::is_directory(repo.Path(fs::path(file).parent_path().string()))) continue;
      switch (kind) {
        case 0: repo.Write(file, "staged " + n + "\n"); repo.Git("add " + file); break;
        case 1: repo.Git("rm -q --cached " + file); break;
        case 2: repo.Write("new" + n + "/x.yaml", "n\n"); repo.Git("add new" + n); break;
        case 3:
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::permissions(repo.Path(file), fs::perms::owner_exec, fs::perm_options::add);
            repo.Git("add " + file);
          }
          break;
        case 4:  // a file becomes a link
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::remove(repo.Path(file));
            repo.Link(file, "elsewhere");
            repo.Git("add " + file);
          }
          break;
        case 5:  // a file becomes a folder
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::remove(repo.Path(file));
            repo.Write(file + "/inner.yaml", "i\n");
            repo.Git("add -A " + fs::path(file).parent_path().string());
          }
          break;
        case 6: repo.Write("ita" + n + ".yaml", "i\n"); repo.Git("add -N ita" + n + ".yaml"); break;
        case 7:  // an added entry marked assume-unchanged: libgit2 leaves it out
          repo.Write("d3/assumed" + n + ".yaml", "a\n");
          repo.Git("add d3/assumed" + n + ".yaml");
          repo.Git("update-index --assume-unchanged d3/assumed" + n + ".yaml");
          break;
        case 8:
          repo.Git("update-index --add --cacheinfo 160000,1111111111111111111111111111111111111" +
                   std::to_string(100 + edit) + ",d2/mod" + std::to_string(edit % 2));
          break;
        case 9: repo.Git("update-index --skip-worktree " + file); break;
        case 10: {  // a folder becomes a file
          const std::string folder = fs::path(file).parent_path().string();
          repo.Git("rm -r -q --cached " + folder);
          fs::remove_all(repo.Path(folder));
          repo.Write(folder, "a file now\n");
          repo.Git("add " + folder);
          break;
        }
      }
    }
    changed += ExpectAgreement(repo, older ? "HEAD~1" : "HEAD", "round " + std::to_string(round));
  }
  EXPECT_GT(changed, 40u);  // the edits did change something
}

TEST(GitIndexDiffTest, CleanIndexAgainstAnOlderCommitReadsOnlyChangedFolders) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  for (int i = 0; i < 30; ++i) repo.Write(NestedFileName(i), std::to_string(i) + "\n");
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write(NestedFileName(5), "changed\n");
  fs::remove(repo.Path(NestedFileName(6)));
  ASSERT_EQ(repo.Commit("second"), 0);
  EXPECT_EQ(ExpectAgreement(repo, "HEAD~1", "clean"), 2u);
  EXPECT_EQ(ExpectAgreement(repo, "HEAD", "clean"), 0u);
}

TEST(GitIndexDiffTest, ConflictsAgreeWithLibgit2) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("d1/s1/a.yaml", "base\n");
  repo.Write("d1/s1/b.yaml", "base\n");
  repo.Write("d2/c.yaml", "base\n");
  ASSERT_EQ(repo.Commit("base"), 0);
  ASSERT_EQ(repo.Git("checkout -q -b other"), 0);
  repo.Write("d1/s1/a.yaml", "other\n");
  fs::remove(repo.Path("d1/s1/b.yaml"));
  repo.Write("d1/s1/new.yaml", "other\n");
  ASSERT_EQ(repo.Commit("other"), 0);
  ASSERT_EQ(repo.Git("checkout -q main"), 0);
  repo.Write("d1/s1/a.yaml", "main\n");
  repo.Write("d1/s1/b.yaml", "main\n");
  repo.Write("d1/s1/new.yaml", "main\n");
  ASSERT_EQ(repo.Commit("main"), 0);
  EXPECT_NE(repo.Git("merge -q other"), 0);
  EXPECT_GE(ExpectAgreement(repo, "HEAD", "conflicts"), 3u);
  EXPECT_GE(ExpectAgreement(repo, "HEAD~1", "conflicts"), 3u);
}

}  // namespace
}  // namespace tjr::source
