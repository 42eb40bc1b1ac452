// ChangedPaths against the working tree (git_worktree.cc), checked against
// the git command: `git diff --name-only --no-renames BASE` plus `git
// ls-files --others` (untracked and ignored files) is what it must find.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include "testkit/git_repo.h"
#include "source/git_tree.h"

namespace tjr::source {
namespace {
namespace fs = std::filesystem;
using Paths = std::vector<std::string>;

// The lines `git ARGS` prints in `repo`.
Paths GitLines(const testkit::GitRepo& repo, const std::string& args) {
  const std::string command = "cd " + testkit::ShellQuote(repo.root()) + " && GIT_CONFIG_NOSYSTEM=1 HOME=" +
                              testkit::ShellQuote(repo.root()) + " git " + args + " 2>/dev/null";
  Paths lines;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return lines;
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  ::pclose(pipe);
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string ReadAll(const std::string& path) {
  std::string text;
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  return text;
}

Paths GitSays(const testkit::GitRepo& repo, const std::string& base) {
  std::set<std::string> paths;
  for (const std::string& p : GitLines(repo, "diff --name-only --no-renames " + base)) paths.insert(p);
  for (const std::string& p : GitLines(repo, "ls-files --others")) paths.insert(p);
  return {paths.begin(), paths.end()};
}

Paths Changed(const testkit::GitRepo& repo, const std::string& base, const Paths& scope = {}) {
  Result<Paths> changed = ChangedPaths(repo.root(), base, "", scope);
  EXPECT_TRUE(changed.ok()) << (changed.ok() ? "" : changed.error().ToString());
  return changed.ok() ? *changed : Paths{"<error>"};
}

TEST(WorktreeChangesTest, RandomEditsAgreeWithGit) {
  TJR_REQUIRE_GIT();
  std::mt19937 random(7);
  for (int round = 0; round < 4; ++round) {
    testkit::GitRepo repo;
    // Enough files for the lstat pass to run on several threads.
    std::vector<std::string> files;
    for (int i = 0; i < 1500; ++i) {
      files.push_back("d" + std::to_string(i % 7) + "/s" + std::to_string(i % 3) + "/f" + std::to_string(i) +
                      ".yaml");
      repo.Write(files.back(), "value: " + std::to_string(i) + "\n");
    }
    repo.Write(".gitignore", "*.ignored\n");
    ASSERT_EQ(repo.Commit("base"), 0);
    for (int edit = 0; edit < 40; ++edit) {
      const std::string& file = files[random() % files.size()];
      switch (random() % 7) {
        case 0:  // same size, other bytes: an lstat right after the index may not tell
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            std::string text = ReadAll(repo.Path(file));
            text[text.size() - 2] = text[text.size() - 2] == '0' ? '1' : '0';
            repo.Write(file, text);
          }
          break;
        case 1: repo.Write(file, "changed: " + std::to_string(edit) + "\n"); break;
        case 2: fs::remove(repo.Path(file)); break;
        case 3: repo.Write("new" + std::to_string(edit) + "/deep/n.yaml", "n\n"); break;
        case 4: repo.Write(file + ".ignored", "i\n"); break;
        case 5:  // only its times change: unchanged
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::last_write_time(repo.Path(file), fs::last_write_time(repo.Path(file)) + std::chrono::seconds(5));
          }
          break;
        case 6:
          if (fs::is_regular_file(fs::symlink_status(repo.Path(file)))) {
            fs::remove(repo.Path(file));
            repo.Link(file, "elsewhere.yaml");
          }
          break;
      }
    }
    const Paths expected = GitSays(repo, "HEAD");
    EXPECT_GT(expected.size(), 20u);
    EXPECT_EQ(Changed(repo, "HEAD"), expected) << "round " << round;
  }
}

TEST(WorktreeChangesTest, ASameSizeRewriteRightAfterTheIndexIsFound) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "one\n");
  ASSERT_EQ(repo.Commit(), 0);
  // Same size, in the index's own second. With nanosecond timestamps the
  // times tell; on a file system without them, the racy check does.
  repo.Write("a.yaml", "two\n");
  EXPECT_EQ(Changed(repo, "HEAD"), Paths{"a.yaml"});
  EXPECT_EQ(GitSays(repo, "HEAD"), Paths{"a.yaml"});
}

TEST(WorktreeChangesTest, TouchedOrChmodedFilesWithTheSameBytesAreUnchanged) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "a\n");
  repo.Write("b.yaml", "b\n");
  ASSERT_EQ(repo.Commit(), 0);
  fs::last_write_time(repo.Path("a.yaml"), fs::last_write_time(repo.Path("a.yaml")) + std::chrono::hours(1));
  fs::permissions(repo.Path("b.yaml"), fs::perms::owner_exec, fs::perm_options::add);
  // git counts b's mode; its bytes, all tjrender reads, are the same.
  EXPECT_EQ(Changed(repo, "HEAD"), Paths{});
}

TEST(WorktreeChangesTest, StagedChangesAndScopes) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a/x.yaml", "1\n");
  repo.Write("b/y.yaml", "1\n");
  ASSERT_EQ(repo.Commit(), 0);
  repo.Write("a/x.yaml", "2\n");
  repo.Write("b/new.yaml", "n\n");
  ASSERT_EQ(repo.Git("add a/x.yaml b/new.yaml"), 0);
  repo.Write("a/x.yaml", "1\n");  // staged, then put back in the working tree
  repo.Write("b/untracked.yaml", "u\n");
  // The staged file counts (its index entry differs from BASE), as it did
  // with libgit2's combined diff; git's own diff against BASE does not.
  EXPECT_EQ(Changed(repo, "HEAD"), (Paths{"a/x.yaml", "b/new.yaml", "b/untracked.yaml"}));
  EXPECT_EQ(Changed(repo, "HEAD", {"b"}), (Paths{"b/new.yaml", "b/untracked.yaml"}));
  EXPECT_EQ(Changed(repo, "HEAD", {"b/untracked.yaml"}), (Paths{"b/untracked.yaml"}));
  EXPECT_EQ(Changed(repo, "HEAD", {"a/x.yaml"}), (Paths{"a/x.yaml"}));
}

TEST(WorktreeChangesTest, SubmodulesAndNestedRepositoriesAreNotEntered) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "a\n");
  ASSERT_EQ(repo.Commit(), 0);
  ASSERT_EQ(repo.Git("update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,vendor"), 0);
  ASSERT_EQ(repo.Git("commit -q -m submodule"), 0);
  repo.Write("vendor/inside.yaml", "s\n");
  repo.Write("nested/.git/HEAD", "ref: refs/heads/main\n");
  repo.Write("nested/file.yaml", "n\n");
  EXPECT_EQ(Changed(repo, "HEAD"), Paths{});
}

TEST(WorktreeChangesTest, ReplacedByAFolderOrDeleted) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "a\n");
  repo.Write("b.yaml", "b\n");
  ASSERT_EQ(repo.Commit(), 0);
  fs::remove(repo.Path("a.yaml"));
  repo.Write("a.yaml/inner.yaml", "i\n");
  fs::remove(repo.Path("b.yaml"));
  EXPECT_EQ(Changed(repo, "HEAD"), (Paths{"a.yaml", "a.yaml/inner.yaml", "b.yaml"}));
  EXPECT_EQ(Changed(repo, "HEAD"), GitSays(repo, "HEAD"));
}

TEST(WorktreeChangesTest, EveryIndexVersionAndOlderBases) {
  TJR_REQUIRE_GIT();
  for (const char* version : {"2", "3", "4"}) {
    testkit::GitRepo repo;
    for (int i = 0; i < 50; ++i) repo.Write("d" + std::to_string(i % 5) + "/f" + std::to_string(i) + ".yaml", "x\n");
    ASSERT_EQ(repo.Commit("base"), 0);
    repo.Write("d1/f1.yaml", "second\n");
    ASSERT_EQ(repo.Commit("second"), 0);
    ASSERT_EQ(repo.Git(std::string("update-index --index-version ") + version), 0);
    repo.Write("d2/f2.yaml", "staged\n");
    ASSERT_EQ(repo.Git("add d2/f2.yaml"), 0);
    repo.Write("d3/f3.yaml", "unstaged\n");
    repo.Write("d4/new.yaml", "untracked\n");
    fs::remove(repo.Path("d0/f0.yaml"));
    for (const char* base : {"HEAD", "HEAD~1"}) {
      EXPECT_EQ(Changed(repo, base), GitSays(repo, base)) << "version " << version << ", " << base;
    }
    EXPECT_EQ(Changed(repo, "HEAD~1", {"d1"}), Paths{"d1/f1.yaml"});
  }
}

TEST(WorktreeChangesTest, FoldersRemovedOrReplacedByFiles) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  for (int i = 0; i < 1200; ++i) repo.Write("d" + std::to_string(i % 3) + "/f" + std::to_string(i) + ".yaml", "x\n");
  ASSERT_EQ(repo.Commit(), 0);
  fs::remove_all(repo.Path("d0"));
  fs::remove_all(repo.Path("d1"));
  repo.Write("d1", "now a file\n");
  const Paths changed = Changed(repo, "HEAD");
  EXPECT_EQ(changed.size(), 801u);  // d0's and d1's files, and the file d1
  EXPECT_EQ(changed, GitSays(repo, "HEAD"));
}

TEST(WorktreeChangesTest, ASplitIndexIsLeftToLibgit2) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "a\n");
  ASSERT_EQ(repo.Commit(), 0);
  ASSERT_EQ(repo.Git("update-index --split-index"), 0);
  // libgit2 1.5 does not read split indexes either: the same error as
  // before the index had its own reader.
  Result<Paths> changed = ChangedPaths(repo.root(), "HEAD", "", {});
  ASSERT_FALSE(changed.ok());
  EXPECT_NE(changed.error().message.find("cannot read the index"), std::string::npos) << changed.error().message;
}

}  // namespace
}  // namespace tjr::source
