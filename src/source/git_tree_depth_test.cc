// Folders nested deeper than Git reads (core.maxTreeDepth), through every
// walk of the adapter: the revision's tree (GitTree), the comparison of two
// revisions and of a revision with the index (ChangedPaths). Each refuses
// them with an error located at the path's first folders; none recurses
// (7,000 levels overflowed the stack of the recursive walks).
#include "source/git_tree_depth.h"

#include <git2.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "source/git_tree.h"
#include "source/git_util.h"
#include "source/walk.h"
#include "testkit/git_repo.h"

namespace tjr::source {
namespace {

// Commits on HEAD a folder deep/d/d/... `depth` folders deep with a.yaml in
// the innermost; returns the commit's id.
std::string CommitDeepFolder(const testkit::GitRepo& repo, std::size_t depth) {
  Result<GitHandle<git_repository, git_repository_free>> opened = OpenRepository(repo.root());
  EXPECT_TRUE(opened.ok());
  if (!opened.ok()) return "";
  git_repository* raw = opened->get();
  git_oid blob{};
  const char text[] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\n";
  EXPECT_EQ(git_blob_create_from_buffer(&blob, raw, text, sizeof text - 1), 0);
  git_oid tree = blob;
  auto wrap = [&](const char* name, const git_oid& id, git_filemode_t mode, const git_tree* base) {
    git_treebuilder* builder = nullptr;
    EXPECT_EQ(git_treebuilder_new(&builder, raw, base), 0);
    EXPECT_EQ(git_treebuilder_insert(nullptr, builder, name, &id, mode), 0);
    git_oid out{};
    EXPECT_EQ(git_treebuilder_write(&out, builder), 0);
    git_treebuilder_free(builder);
    return out;
  };
  tree = wrap("a.yaml", blob, GIT_FILEMODE_BLOB, nullptr);
  for (std::size_t i = 1; i < depth; ++i) tree = wrap("d", tree, GIT_FILEMODE_TREE, nullptr);
  Result<PeeledTree> head = PeelToTree(raw, "HEAD");
  EXPECT_TRUE(head.ok());
  git_oid root = wrap("deep", tree, GIT_FILEMODE_TREE, head->tree.get());
  git_tree* root_tree = nullptr;
  EXPECT_EQ(git_tree_lookup(&root_tree, raw, &root), 0);
  git_object* parent = nullptr;
  EXPECT_EQ(git_revparse_single(&parent, raw, "HEAD"), 0);
  git_signature* who = nullptr;
  EXPECT_EQ(git_signature_new(&who, "t", "t@example.com", 0, 0), 0);
  git_oid commit{};
  const git_commit* parents[] = {reinterpret_cast<git_commit*>(parent)};
  EXPECT_EQ(git_commit_create(&commit, raw, "HEAD", who, who, nullptr, "deep", root_tree, 1, parents), 0);
  git_signature_free(who);
  git_object_free(parent);
  git_tree_free(root_tree);
  return OidHex(&commit);
}

// A repository whose HEAD holds `depth` nested folders (tag base: without
// them), made once per test program: 7,000 trees take a second to write.
const testkit::GitRepo& RepoWithDeepHead(std::size_t depth) {
  static std::map<std::size_t, std::unique_ptr<testkit::GitRepo>> made;
  std::unique_ptr<testkit::GitRepo>& repo = made[depth];
  if (repo == nullptr) {
    repo = std::make_unique<testkit::GitRepo>();
    repo->Write("top.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: top}\n");
    EXPECT_EQ(repo->Commit(), 0);
    EXPECT_EQ(repo->Git("tag base"), 0);
    CommitDeepFolder(*repo, depth);
  }
  return *repo;
}

void ExpectTooDeep(const Diagnostic& error, std::size_t depth) {
  EXPECT_EQ(error.category, Category::kInput);
  EXPECT_EQ(error.location.ToString(), "deep/d/d/d/d/d/d/d/...");
  EXPECT_NE(error.message.find("exceeded maximum allowed tree depth"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("nests folders " + std::to_string(depth)), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("4096 (core.maxTreeDepth)"), std::string::npos) << error.message;
}

TEST(GitTreeDepthTest, FolderDepthCountsTheFolders) {
  EXPECT_EQ(FolderDepth(""), 0u);
  EXPECT_EQ(FolderDepth("a"), 1u);
  EXPECT_EQ(FolderDepth("a/b/c"), 3u);
  EXPECT_EQ(TreeTooDeep("a/b", "revision x").location.ToString(), "a/b");
}

TEST(GitTreeDepthTest, AWalkOfARevisionStopsAtGitsDepth) {
  TJR_REQUIRE_GIT();
  const testkit::GitRepo& repo = RepoWithDeepHead(7000);
  Result<std::unique_ptr<GitTree>> tree = OpenGitRevision(repo.root(), "HEAD");
  ASSERT_TRUE(tree.ok()) << tree.error().ToString();
  ExpandedPaths found = ExpandPaths(**tree, {"."}, {".yaml"});
  ASSERT_FALSE(found.diagnostics.empty());
  bool refused = false;
  for (const Diagnostic& d : found.diagnostics) {
    if (d.message.find("maximum allowed tree depth") == std::string::npos) continue;
    ExpectTooDeep(d, kMaxTreeDepth + 1);
    refused = true;
  }
  EXPECT_TRUE(refused);
  std::string path = "deep";
  for (int i = 1; i < 7000; ++i) path += "/d";
  Result<std::string> bytes = (*tree)->Read(path + "/a.yaml", 1 << 20);
  ASSERT_FALSE(bytes.ok());
  ExpectTooDeep(bytes.error(), 7000);
}

TEST(GitTreeDepthTest, ComparisonsStopAtGitsDepth) {
  TJR_REQUIRE_GIT();
  const testkit::GitRepo& repo = RepoWithDeepHead(7000);
  Result<std::vector<std::string>> revisions = ChangedPaths(repo.root(), "base", "HEAD");
  ASSERT_FALSE(revisions.ok());
  ExpectTooDeep(revisions.error(), kMaxTreeDepth + 1);
  // HEAD's deep folder against the index, which lacks it.
  Result<std::vector<std::string>> worktree = ChangedPaths(repo.root(), "HEAD", "");
  ASSERT_FALSE(worktree.ok());
  ExpectTooDeep(worktree.error(), kMaxTreeDepth + 1);
}

TEST(GitTreeDepthTest, GitsDepthItselfIsRead) {
  TJR_REQUIRE_GIT();
  const testkit::GitRepo& repo = RepoWithDeepHead(kMaxTreeDepth);
  Result<std::vector<std::string>> changed = ChangedPaths(repo.root(), "base", "HEAD");
  ASSERT_TRUE(changed.ok()) << changed.error().ToString();
  ASSERT_EQ(changed->size(), 1u);
  EXPECT_EQ(FolderDepth((*changed)[0]), kMaxTreeDepth + 1);  // the file below the innermost folder
  Result<std::unique_ptr<GitTree>> tree = OpenGitRevision(repo.root(), "HEAD");
  ASSERT_TRUE(tree.ok());
  ExpandedPaths found = ExpandPaths(**tree, {"."}, {".yaml"});
  EXPECT_TRUE(found.diagnostics.empty()) << found.diagnostics[0].ToString();
  ASSERT_EQ(found.files.size(), 2u);
  Result<std::string> bytes = (*tree)->Read(found.files[0].read_path, 1 << 20);
  ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
  EXPECT_NE(bytes->find("name: deep"), std::string::npos);
}

}  // namespace
}  // namespace tjr::source
