// Opening the source `render` and `check` read: the working tree, files in
// memory, a Git revision, and what each refuses.
#include "app/render_source.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "source/memory_tree.h"
#include "testkit/fixtures.h"
#include "testkit/git_repo.h"
#include "testkit/temp_dir.h"

namespace tjr::app {
namespace {

std::string ErrorOf(const SourceRequest& request) {
  Result<std::unique_ptr<RenderSource>> source = OpenRenderSource(request);
  return source.ok() ? "<opened>" : source.error().ToString();
}

TEST(RenderSourceTest, FilesInMemoryWithTheirConfigurationHidden) {
  source::MemoryTree tree(std::map<std::string, std::string>{
      {"input/.tjrender.yaml", "target: trainer-v2.1\nexclude: [skip/**]\n"},
      {"input/job.yaml", testkit::kPlainTrainJob},
      {"input/skip/other.yaml", testkit::kPlainRuntime}});
  SourceRequest request;
  request.paths = {"input"};
  request.tree = &tree;
  Result<std::unique_ptr<RenderSource>> source = OpenRenderSource(request);
  ASSERT_TRUE(source.ok()) << source.error().ToString();
  EXPECT_EQ((*source)->config_path, "input/.tjrender.yaml");
  ASSERT_TRUE((*source)->config.target.has_value());
  EXPECT_EQ(*(*source)->config.target, "trainer-v2.1");
  // The loader's tree lists neither the configuration nor the excluded files.
  auto names = [&](const std::string& folder) {
    std::vector<std::string> listed;
    Result<std::vector<source::DirEntry>> entries = (*source)->tree().List(folder);
    if (entries.ok()) {
      for (const source::DirEntry& entry : *entries) listed.push_back(entry.name);
    }
    return listed;
  };
  EXPECT_EQ(names("input"), (std::vector<std::string>{"job.yaml", "skip"}));
  EXPECT_EQ(names("input/skip"), std::vector<std::string>{});
  EXPECT_FALSE((*source)->repo.has_value());
}

TEST(RenderSourceTest, RefusesWhatItCannotRead) {
  EXPECT_EQ(ErrorOf({}), "error: needs at least one PATH");
  source::MemoryTree tree;
  SourceRequest in_memory;
  in_memory.paths = {"input"};
  in_memory.tree = &tree;
  in_memory.rev = "HEAD";
  EXPECT_EQ(ErrorOf(in_memory), "error: a tree in memory has no Git revisions");
  // A configuration with a typo is an error, not the defaults.
  source::MemoryTree typo(std::map<std::string, std::string>{{"input/.tjrender.yaml", "targte: v2.1\n"}});
  SourceRequest bad;
  bad.paths = {"input"};
  bad.tree = &typo;
  EXPECT_NE(ErrorOf(bad).find("targte"), std::string::npos) << ErrorOf(bad);
}

TEST(RenderSourceTest, GitPathsAreRepositoryPaths) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("jobs/job.yaml", testkit::kPlainTrainJob);
  ASSERT_EQ(repo.Commit(), 0);
  SourceRequest request;
  request.repo = repo.root();
  request.rev = "HEAD";
  request.paths = {"jobs"};
  Result<std::unique_ptr<RenderSource>> source = OpenRenderSource(request);
  ASSERT_TRUE(source.ok()) << source.error().ToString();
  EXPECT_NE((*source)->head_git, nullptr);
  EXPECT_EQ((*source)->paths, std::vector<std::string>{"jobs"});
  // No PATH: the whole revision.
  request.paths = {};
  source = OpenRenderSource(request);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->paths, std::vector<std::string>{"."});

  request.paths = {"-"};
  EXPECT_EQ(ErrorOf(request), "error: - (stdin) cannot be read with --rev or --since");
  request.paths = {"/elsewhere/entirely"};
  EXPECT_EQ(ErrorOf(request), "error: '/elsewhere/entirely' is outside the repository");
  request.paths = {"jobs"};
  request.rev = "no-such-revision";
  EXPECT_NE(ErrorOf(request), "<opened>");
}

}  // namespace
}  // namespace tjr::app
