#include "source/git_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <thread>
#include <vector>

#include "testkit/git_repo.h"
#include "source/loader.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

const std::vector<std::string> kExtensions = {".json", ".yaml", ".yml"};

std::unique_ptr<GitTree> Open(const std::string& dir, const std::string& rev) {
  Result<std::unique_ptr<GitTree>> tree = OpenGitRevision(dir, rev);
  EXPECT_TRUE(tree.ok()) << (tree.ok() ? "" : tree.error().ToString());
  return tree.ok() ? std::move(*tree) : nullptr;
}

std::string ReadOrError(const Tree& tree, const std::string& path) {
  Result<std::string> text = tree.Read(path, 1 << 20);
  return text.ok() ? *text : "error: " + text.error().ToString();
}

// What a pre-commit hook should see: the commit being made.
TEST(GitTreeTest, TheStagedRevisionIsTheIndexNotTheWorkingTree) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("m/a.yaml", "committed\n");
  repo.Write("m/b.yaml", "committed\n");
  ASSERT_EQ(repo.Commit(), 0);
  repo.Write("m/a.yaml", "staged\n");
  repo.Write("m/new.yaml", "staged\n");
  ASSERT_EQ(repo.Git("add m/a.yaml m/new.yaml"), 0);
  repo.Write("m/a.yaml", "unstaged\n");
  repo.Write("m/b.yaml", "unstaged\n");
  repo.Write("m/untracked.yaml", "untracked\n");
  auto count_objects = [&] {
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(repo.root() + "/.git/objects")) {
      files += entry.is_regular_file() ? 1 : 0;
    }
    return files;
  };
  const std::size_t objects = count_objects();
  auto staged = Open(repo.root(), kStagedRevision);
  ASSERT_TRUE(staged);
  EXPECT_EQ(ReadOrError(*staged, "m/a.yaml"), "staged\n");
  EXPECT_EQ(ReadOrError(*staged, "m/b.yaml"), "committed\n");
  EXPECT_EQ(ReadOrError(*staged, "m/new.yaml"), "staged\n");
  EXPECT_FALSE(staged->Stat("m/untracked.yaml").ok());
  ExpandedPaths files = ExpandPaths(*staged, {"m"}, kExtensions);
  std::vector<std::string> names;
  for (const InputFile& file : files.files) names.push_back(file.name);
  EXPECT_EQ(names, (std::vector<std::string>{"m/a.yaml", "m/b.yaml", "m/new.yaml"}));
  EXPECT_EQ(count_objects(), objects) << "the index's trees are kept in memory, not written";
  // Nothing staged: the staged revision is HEAD's tree.
  ASSERT_EQ(repo.Git("reset -q"), 0);
  auto clean = Open(repo.root(), kStagedRevision);
  ASSERT_TRUE(clean);
  EXPECT_EQ(ReadOrError(*clean, "m/a.yaml"), "committed\n");
}

TEST(GitTreeTest, ReadsRevisionsNotTheWorkingTree) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("m/a.yaml", "v1\n");
  ASSERT_EQ(repo.Commit(), 0);
  repo.Write("m/a.yaml", "v2\n");
  ASSERT_EQ(repo.Commit(), 0);
  ASSERT_EQ(repo.Git("tag first HEAD~1"), 0);
  repo.Write("m/a.yaml", "working\n");
  auto head = Open(repo.root(), "HEAD");
  auto previous = Open(repo.root(), "HEAD~1");
  auto tag = Open(repo.root(), "first");
  auto branch = Open(repo.root(), "main");
  ASSERT_TRUE(head && previous && tag && branch);
  EXPECT_EQ(ReadOrError(*head, "m/a.yaml"), "v2\n");
  EXPECT_EQ(ReadOrError(*previous, "./m/../m/a.yaml"), "v1\n");
  EXPECT_EQ(ReadOrError(*tag, "m/a.yaml"), "v1\n");
  EXPECT_EQ(branch->revision_id(), head->revision_id());
  EXPECT_NE(previous->revision_id(), head->revision_id());
  auto by_sha = Open(repo.root(), previous->revision_id());
  ASSERT_TRUE(by_sha);
  EXPECT_EQ(ReadOrError(*by_sha, "m/a.yaml"), "v1\n");
  // Equal ids exactly when equal bytes.
  EXPECT_NE(head->BlobId("m/a.yaml"), previous->BlobId("m/a.yaml"));
  EXPECT_EQ(head->BlobId("m/a.yaml").size(), 40u);
  EXPECT_EQ(head->BlobId("m"), "");
  // A folder opened from below finds the repository above it.
  EXPECT_TRUE(OpenGitRevision(repo.Path("m"), "HEAD").ok());
}

// Blob bytes are read outside the tree's lock, each thread through a
// repository handle of its own: every thread must still get every file's
// own bytes, from loose objects, from a pack, and in a linked worktree
// (whose Git folder is not the repository's).
TEST(GitTreeTest, ConcurrentReadsGetEachFilesBytes) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  constexpr int kFiles = 48;
  auto name = [](int i) { return "m/f" + std::to_string(i) + ".yaml"; };
  auto bytes = [](int i) { return "file: " + std::to_string(i) + "\n" + std::string(i * 97, 'x') + "\n"; };
  for (int i = 0; i < kFiles; ++i) repo.Write(name(i), bytes(i));
  ASSERT_EQ(repo.Commit(), 0);
  auto read_all_concurrently = [&](const std::string& dir) {
    auto tree = Open(dir, "HEAD");
    ASSERT_TRUE(tree);
    std::vector<int> wrong(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < 5; ++round) {
          for (int k = 0; k < kFiles; ++k) {
            int i = (k * (t + 1) + round) % kFiles;  // a different order per thread
            if (ReadOrError(*tree, name(i)) != bytes(i)) ++wrong[t];
          }
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < 4; ++t) EXPECT_EQ(wrong[t], 0) << dir << ", thread " << t;
    EXPECT_EQ(ReadOrError(*tree, "m/none.yaml").rfind("error: ", 0), 0u);
  };
  read_all_concurrently(repo.root());  // loose objects
  ASSERT_EQ(repo.Git("gc -q"), 0);
  read_all_concurrently(repo.root());  // packed
  ASSERT_EQ(repo.Git("worktree add -q linked"), 0);
  read_all_concurrently(repo.Path("linked"));
}

TEST(GitTreeTest, StatListAndErrors) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "x: 1\n");
  repo.Write("d/e/f.json", "{}\n");
  ASSERT_EQ(repo.Commit(), 0);
  auto tree = Open(repo.root(), "HEAD");
  ASSERT_TRUE(tree);
  EXPECT_EQ(*tree->Stat("."), EntryType::kDirectory);
  EXPECT_EQ(*tree->Stat("d/e"), EntryType::kDirectory);
  EXPECT_EQ(*tree->Stat("d/e/f.json"), EntryType::kFile);
  EXPECT_EQ(*tree->Resolve("./d//e/"), "/d/e");
  Result<std::vector<DirEntry>> root = tree->List("");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->size(), 2u);
  EXPECT_NE(tree->Stat("nope.yaml").error().ToString().find("no such file or directory in revision HEAD"),
            std::string::npos);
  EXPECT_NE(tree->Read("../x.yaml", 10).error().message.find("leaves the repository"),
            std::string::npos);
  EXPECT_FALSE(tree->Read("/etc/passwd", 10).ok());
  EXPECT_FALSE(tree->Read("d", 10).ok());
  EXPECT_FALSE(tree->List("a.yaml").ok());
  EXPECT_NE(tree->Read("a.yaml", 2).error().message.find("larger than the limit"),
            std::string::npos);
  Result<std::unique_ptr<GitTree>> bad = OpenGitRevision(repo.root(), "no-such-branch");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown revision"), std::string::npos);
  EXPECT_EQ(bad.error().category, Category::kInput);
  testkit::TempDir plain;
  EXPECT_FALSE(OpenGitRevision(plain.root(), "HEAD").ok());
}

TEST(GitTreeTest, BareRepositories) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "bare\n");
  ASSERT_EQ(repo.Commit(), 0);
  ASSERT_EQ(repo.Git("clone -q --bare . bare.git"), 0);
  Result<GitRepository> found = FindGitRepository(repo.Path("bare.git"));
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->workdir, "");
  auto tree = Open(repo.Path("bare.git"), "main");
  ASSERT_TRUE(tree);
  EXPECT_EQ(ReadOrError(*tree, "a.yaml"), "bare\n");
  EXPECT_FALSE(ChangedPaths(repo.Path("bare.git"), "main", "").ok());
  Result<GitRepository> normal = FindGitRepository(repo.root());
  ASSERT_TRUE(normal.ok());
  EXPECT_FALSE(normal->workdir.empty());
}

// A 200 MB blob was inflated whole before its size was checked. The object
// written here claims 200 MB in its header and holds one byte: reading it
// whole fails (corrupt), so a "larger than the limit" answer shows the size
// came from the header alone.
TEST(GitTreeTest, ABlobOverTheLimitIsRefusedBeforeItIsInflated) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("small.yaml", "a: 1\n");
  ASSERT_EQ(repo.Commit(), 0);
  const std::string id = "0123456789abcdef0123456789abcdef01234567";
  const std::string object_dir = repo.Path(".git/objects/01");
  const std::string command = "mkdir -p " + testkit::ShellQuote(object_dir) +
                              " && python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress("
                              "b\"blob 209715200\\x00x\"))' > " +
                              testkit::ShellQuote(object_dir + "/23456789abcdef0123456789abcdef01234567");
  ASSERT_EQ(std::system(command.c_str()), 0);
  ASSERT_EQ(repo.Git("update-index --add --cacheinfo 100644," + id + ",big.yaml"), 0);
  ASSERT_EQ(repo.Git("commit -q -m big"), 0);
  auto tree = Open(repo.root(), "HEAD");
  ASSERT_TRUE(tree);
  Result<std::string> read = tree->Read("big.yaml", std::size_t{64} << 20);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().ToString(), "big.yaml: error: file is larger than the limit of 67108864 bytes");
  EXPECT_EQ(*tree->Read("small.yaml", 100), "a: 1\n");
}

TEST(GitTreeTest, SymlinksAreNotFollowedAndSubmodulesSkipped) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("m/a.yaml", "kind: x\n");
  repo.Link("m/link.yaml", "a.yaml");
  repo.Link("m/outside.yaml", "/etc/passwd");
  repo.Link("m/dir", "..");
  ASSERT_EQ(repo.Commit(), 0);
  ASSERT_EQ(repo.Git("update-index --add --cacheinfo "
                     "160000,1111111111111111111111111111111111111111,m/vendor"),
            0);
  ASSERT_EQ(repo.Git("commit -q -m submodule"), 0);
  auto tree = Open(repo.root(), "HEAD");
  ASSERT_TRUE(tree);
  Result<EntryType> link = tree->Stat("m/link.yaml");
  ASSERT_FALSE(link.ok());
  EXPECT_EQ(link.error().severity, Severity::kWarning);
  EXPECT_EQ(RuleId(link.error()), "git-link-not-followed");
  EXPECT_EQ(link.error().ToString(),
            "m/link.yaml: warning: skipped: symbolic link to a.yaml not followed (a Git "
            "revision is read as stored)");
  EXPECT_EQ(tree->BlobId("m/link.yaml"), "");

  ExpandedPaths expanded = ExpandPaths(*tree, {"m"}, kExtensions);
  ASSERT_EQ(expanded.files.size(), 1u);
  EXPECT_EQ(expanded.files[0].name, "m/a.yaml");
  std::vector<std::string> messages;
  for (const Diagnostic& d : expanded.diagnostics) messages.push_back(d.ToString());
  std::sort(messages.begin(), messages.end());
  EXPECT_EQ(messages,
            (std::vector<std::string>{
                // No manifest would be read through it: a note.
                "m/dir: note: skipped: symbolic link to .. not followed (a Git revision is "
                "read as stored)",
                "m/link.yaml: warning: skipped: symbolic link to a.yaml not followed (a Git "
                "revision is read as stored)",
                "m/outside.yaml: warning: skipped: symbolic link to /etc/passwd not followed (a "
                "Git revision is read as stored)",
                "m/vendor: warning: skipped: submodule: a Git revision holds only its commit, so no "
                "file of it is read (render the submodule's repository itself)"}));
  // A link named on the command line is not followed either.
  ManifestSet set = LoadManifests(*tree, {"m/link.yaml"});
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(RuleId(set.diagnostics[0]), "git-link-not-followed");
  Result<EntryType> submodule = tree->Stat("m/vendor");
  ASSERT_FALSE(submodule.ok());
  EXPECT_EQ(RuleId(submodule.error()), "git-submodule-not-read");
  EXPECT_TRUE(set.files.empty());
}

TEST(GitTreeTest, LoaderReadsARevisionUnchanged) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("jobs/a.yaml",
             "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: a\n");
  repo.Write("jobs/b.txt", "not read\n");
  ASSERT_EQ(repo.Commit(), 0);
  repo.Write("jobs/c.yaml",
             "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: c\n");
  auto tree = Open(repo.root(), "HEAD");
  ASSERT_TRUE(tree);
  ManifestSet set = LoadManifests(*tree, {"."});
  EXPECT_TRUE(set.diagnostics.empty());
  ASSERT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(set.manifests[0].file, "jobs/a.yaml");
  EXPECT_EQ(set.manifests[0].location().ToString(), "jobs/a.yaml:1:1");
  EXPECT_EQ(set.manifests[0].id.namespace_, "default");
}

TEST(ChangedPathsTest, TreeToTreeAndTreeToWorkingTree) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a/keep.yaml", "k\n");
  repo.Write("a/edit.yaml", "1\n");
  repo.Write("a/gone.yaml", "g\n");
  repo.Write("a/old-name.yaml", "moved\n");
  repo.Write("b/other.yaml", "o\n");
  ASSERT_EQ(repo.Commit(), 0);
  repo.Write("a/edit.yaml", "2\n");
  std::filesystem::remove(repo.Path("a/gone.yaml"));
  std::filesystem::rename(repo.Path("a/old-name.yaml"), repo.Path("a/new-name.yaml"));
  repo.Write("b/other.yaml", "o2\n");
  ASSERT_EQ(repo.Commit(), 0);
  using Paths = std::vector<std::string>;
  Result<Paths> all = ChangedPaths(repo.root(), "HEAD~1", "HEAD");
  ASSERT_TRUE(all.ok()) << all.error().ToString();
  EXPECT_EQ(*all, (Paths{"a/edit.yaml", "a/gone.yaml", "a/new-name.yaml", "a/old-name.yaml",
                         "b/other.yaml"}));
  Result<Paths> only_b = ChangedPaths(repo.root(), "HEAD~1", "HEAD", {"./b/"});
  ASSERT_TRUE(only_b.ok());
  EXPECT_EQ(*only_b, (Paths{"b/other.yaml"}));
  EXPECT_EQ(*ChangedPaths(repo.root(), "HEAD", "HEAD"), Paths{});

  // The working tree: modified, untracked and ignored files count.
  repo.Write(".gitignore", "*.ignored.yaml\n");
  repo.Write("a/keep.yaml", "k2\n");
  repo.Write("a/new/untracked.yaml", "u\n");
  repo.Write("a/x.ignored.yaml", "i\n");
  Result<Paths> work = ChangedPaths(repo.root(), "HEAD", "", {"a"});
  ASSERT_TRUE(work.ok()) << work.error().ToString();
  EXPECT_EQ(*work, (Paths{"a/keep.yaml", "a/new/untracked.yaml", "a/x.ignored.yaml"}));
  EXPECT_FALSE(ChangedPaths(repo.root(), "HEAD", "HEAD", {"../x"}).ok());
  EXPECT_FALSE(ChangedPaths(repo.root(), "nope", "HEAD").ok());
}

}  // namespace
}  // namespace tjr::source
