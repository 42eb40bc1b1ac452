#include "source/confined_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "source/disk_tree.h"
#include "source/walk.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

class ConfinedTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("outside/secret.yaml", "secret: 1\n");
    dir_.Write("repo/ml/job.yaml", "a: 1\n");
    dir_.Write("repo/platform/runtime.yaml", "b: 1\n");
    dir_.Link("repo/ml/inside.yaml", "../platform/runtime.yaml");
    dir_.Link("repo/ml/platform", "../platform");
    dir_.Link("repo/out", dir_.Path("outside"));
    dir_.Link("repo/ml/out.yaml", "../../outside/secret.yaml");
    dir_.Link("repo/loop", "loop");
    tree_.emplace(disk_, dir_.Path("repo"), "the repository");
  }

  std::string Error(const Status& status) { return status.ok() ? "ok" : status.error().ToString(); }

  testkit::TempDir dir_{"confined"};
  DiskTree disk_;
  std::optional<ConfinedTree> tree_;  // made once the repository exists: the root is resolved then
};

TEST_F(ConfinedTreeTest, PathsInsideAreReadLinksInsideFollowed) {
  EXPECT_EQ(*tree_->Read("ml/job.yaml", 100), "a: 1\n");
  EXPECT_EQ(*tree_->Read("ml/inside.yaml", 100), "b: 1\n");
  EXPECT_EQ(*tree_->Read("ml/platform/runtime.yaml", 100), "b: 1\n");
  EXPECT_EQ(*tree_->Stat("ml/platform"), EntryType::kDirectory);
  EXPECT_EQ(tree_->List("ml/platform")->size(), 1u);
  EXPECT_EQ(*tree_->Read(dir_.Path("repo/ml/job.yaml"), 100), "a: 1\n");  // absolute, inside
  EXPECT_EQ(Error(tree_->Check(".")), "ok");
  // A missing file inside is Stat's to report, by the name given.
  EXPECT_EQ(tree_->Stat("ml/none.yaml").error().ToString(), "ml/none.yaml: error: cannot stat: No such file or directory");
}

TEST_F(ConfinedTreeTest, PathsOutsideAreRefusedNamingTheLink) {
  const std::string root = *disk_.Resolve(dir_.Path("repo"));
  const std::string outside = *disk_.Resolve(dir_.Path("outside"));
  const std::string where = ", outside the repository (" + root + "): only paths inside it are read";
  EXPECT_EQ(tree_->Read("ml/out.yaml", 100).error().ToString(),
            "ml/out.yaml: error: is a symbolic link to " + outside + "/secret.yaml" + where);
  EXPECT_EQ(tree_->Read("out/secret.yaml", 100).error().ToString(),
            "out/secret.yaml: error: passes through the symbolic link out, which leads to " + outside + where);
  EXPECT_EQ(tree_->List("out").error().ToString(), "out: error: is a symbolic link to " + outside + where);
  EXPECT_EQ(tree_->Resolve("out").error().category, Category::kInput);
  EXPECT_EQ(*tree_->Stat("out"), EntryType::kDirectory);  // says what it names, reads nothing
  // Missing behind a link out: refused all the same, not "no such file".
  EXPECT_EQ(Error(tree_->Check("out/none.yaml")),
            "out/none.yaml: error: passes through the symbolic link out, which leads to " + outside + where);
  EXPECT_EQ(Error(tree_->Check("../outside/secret.yaml")),
            "../outside/secret.yaml: error: leads out of the repository (" + root + "): only paths inside it are read");
  EXPECT_EQ(Error(tree_->Check("ml/../../outside")),
            "ml/../../outside: error: leads out of the repository (" + root + "): only paths inside it are read");
  EXPECT_EQ(tree_->Read(dir_.Path("outside/secret.yaml"), 100).error().ToString(),
            dir_.Path("outside/secret.yaml") + ": error: resolves to " + outside + "/secret.yaml" + where);
  // A loop of links is Stat's error, at the path.
  EXPECT_EQ(tree_->Stat("loop").error().ToString(), "loop: error: cannot stat: Too many levels of symbolic links");
}

// The walk keeps its own rule inside the folders it reads (a link to a file
// out of the folder named is an error there), so a confined walk of the
// repository never reaches the secret.
TEST_F(ConfinedTreeTest, AWalkOfTheRootNeverLeavesIt) {
  ExpandedPaths expanded = ExpandPaths(*tree_, {"."}, {".yaml"});
  for (const InputFile& file : expanded.files) EXPECT_EQ(file.name.find("out"), std::string::npos) << file.name;
  std::vector<std::string> said;
  for (const Diagnostic& d : expanded.diagnostics) said.push_back(d.ToString());
  const std::string outside = *disk_.Resolve(dir_.Path("outside"));
  const std::string root = *disk_.Resolve(dir_.Path("repo"));
  EXPECT_NE(std::find(said.begin(), said.end(),
                      "ml/out.yaml: error: is a symbolic link to " + outside + "/secret.yaml, outside the repository (" +
                          root + "): only paths inside it are read"),
            said.end())
      << testing::PrintToString(said);
  EXPECT_NE(std::find(said.begin(), said.end(),
                      "out: note: skipped: symbolic link to a directory (not followed, so a tree cannot loop)"),
            said.end())
      << testing::PrintToString(said);
}

TEST(InsideFolderTest, ASeparatorMustFollowTheFolder) {
  EXPECT_TRUE(InsideFolder("/a/b/c", "/a/b"));
  EXPECT_FALSE(InsideFolder("/a/bc", "/a/b"));
  EXPECT_FALSE(InsideFolder("/a/b", "/a/b"));
  EXPECT_TRUE(InsideFolder("/a", "/"));
}

}  // namespace
}  // namespace tjr::source
