// TreeTreeChanges (git_tree_diff.cc) against libgit2's own
// git_diff_tree_to_tree, which ChangedPaths used before, on commits after
// random edits.
#include "source/git_tree_diff.h"

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

// What libgit2 reports.
Paths Libgit2Says(git_repository* repo, git_tree* base, git_tree* head, Paths scope) {
  return Libgit2Paths(std::move(scope), [&](git_diff** diff, const git_diff_options* options) {
    return git_diff_tree_to_tree(diff, repo, base, head, options);
  });
}

// Both agree for every scope, in both directions; returns how many paths
// the whole repository has changed.
std::size_t ExpectAgreement(const testkit::GitRepo& repo, const std::string& base_rev, const std::string& head_rev,
                            const std::string& context) {
  auto opened = OpenRepository(repo.root());
  EXPECT_TRUE(opened.ok());
  if (!opened.ok()) return 0;
  Result<PeeledTree> base = PeelToTree(opened->get(), base_rev);
  Result<PeeledTree> head = PeelToTree(opened->get(), head_rev);
  EXPECT_TRUE(base.ok() && head.ok());
  if (!base.ok() || !head.ok()) return 0;
  std::size_t total = 0;
  for (const Paths& scope : {Paths{}, Paths{"d1"}, Paths{"d2/s1", "d0/s0/f3.yaml"}, Paths{"d1/s2/f5.yaml/x"},
                             Paths{"absent"}, Paths{"d3/s0/f3.yaml"}}) {
    for (const bool forward : {true, false}) {
      git_tree* from = forward ? base->tree.get() : head->tree.get();
      git_tree* to = forward ? head->tree.get() : base->tree.get();
      Paths ours;
      Status status = TreeTreeChanges(opened->get(), from, to, scope, &ours);
      EXPECT_TRUE(status.ok()) << context << ": " << (status.ok() ? "" : status.error().ToString());
      const Paths expected = Libgit2Says(opened->get(), from, to, scope);
      EXPECT_EQ(SortedUnique(ours), expected) << context << ", scope of " << scope.size() << (forward ? "" : ", reversed");
      if (scope.empty()) total = expected.size();
    }
  }
  return total;
}

TEST(GitTreeDiffTest, RandomCommitsAgreeWithLibgit2) {
  TJR_REQUIRE_GIT();
  std::mt19937 random(11);
  std::size_t changed = 0;
  for (int round = 0; round < 8; ++round) {
    testkit::GitRepo repo;
    std::vector<std::string> files;
    for (int i = 0; i < 60; ++i) {
      files.push_back(NestedFileName(i));
      repo.Write(files.back(), "value: " + std::to_string(i) + "\n");
    }
    repo.Write("top.yaml", "t\n");
    repo.Write("d1-x.yaml", "sorts between d1 and d1/\n");
    ASSERT_EQ(repo.Commit("base"), 0);
    for (int edit = 0; edit < 10 + round; ++edit) {
      const std::string& file = files[random() % files.size()];
      const std::string n = std::to_string(edit);
      if (!fs::is_directory(repo.Path(fs::path(file).parent_path().string()))) continue;
      switch (random() % 9) {
        case 0: repo.Write(file, "changed " + n + "\n"); break;
        case 1: fs::remove_all(repo.Path(file)); break;
        case 2: repo.Write("new" + n + "/x.yaml", "n\n"); break;
        case 3:
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::permissions(repo.Path(file), fs::perms::owner_exec, fs::perm_options::add);
          }
          break;
        case 4:  // a file becomes a link
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::remove(repo.Path(file));
            repo.Link(file, "elsewhere");
          }
          break;
        case 5:  // a file becomes a folder
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::remove(repo.Path(file));
            repo.Write(file + "/inner.yaml", "i\n");
          }
          break;
        case 6:  // a submodule entry appears or changes
          repo.Git("add -A");
          repo.Git("update-index --add --cacheinfo 160000,1111111111111111111111111111111111111" +
                   std::to_string(100 + edit) + ",d2/mod" + std::to_string(edit % 2));
          break;
        case 7: {  // a folder becomes a file
          const std::string folder = fs::path(file).parent_path().string();
          fs::remove_all(repo.Path(folder));
          repo.Write(folder, "a file now\n");
          break;
        }
        default:  // the same bytes elsewhere: a rename, both sides reported
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::rename(repo.Path(file), repo.Path(file + ".moved.yaml"));
          }
          break;
      }
    }
    ASSERT_EQ(repo.Commit("edits"), 0);
    changed += ExpectAgreement(repo, "HEAD~1", "HEAD", "round " + std::to_string(round));
    EXPECT_EQ(ExpectAgreement(repo, "HEAD", "HEAD", "same"), 0u);
  }
  EXPECT_GT(changed, 60u);  // the edits did change something
}

// Unchanged folders are not read: a folder whose tree object is missing
// is no error as long as both sides share it.
TEST(GitTreeDiffTest, SharedFoldersAreNotRead) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  for (int i = 0; i < 20; ++i) repo.Write("big/f" + std::to_string(i) + ".yaml", std::to_string(i) + "\n");
  repo.Write("small/a.yaml", "a\n");
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("small/a.yaml", "b\n");
  ASSERT_EQ(repo.Commit("second"), 0);
  auto opened = OpenRepository(repo.root());
  ASSERT_TRUE(opened.ok());
  Result<PeeledTree> base = PeelToTree(opened->get(), "HEAD~1");
  Result<PeeledTree> head = PeelToTree(opened->get(), "HEAD");
  ASSERT_TRUE(base.ok() && head.ok());
  const git_tree_entry* big = git_tree_entry_byname(head->tree.get(), "big");
  ASSERT_NE(big, nullptr);
  const std::string id = OidHex(git_tree_entry_id(big));
  fs::remove(repo.Path(".git/objects/" + id.substr(0, 2) + "/" + id.substr(2)));
  Paths ours;
  ASSERT_TRUE(TreeTreeChanges(opened->get(), base->tree.get(), head->tree.get(), {}, &ours).ok());
  EXPECT_EQ(ours, Paths{"small/a.yaml"});
}

}  // namespace
}  // namespace tjr::source
