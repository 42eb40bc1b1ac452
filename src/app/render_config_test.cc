// Where .tjrender.yaml is found: the first path's folder or a parent, up to
// the repository root.
#include "app/render_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testkit/temp_dir.h"

namespace tjr::app {
namespace {

namespace fs = std::filesystem;

class ConfigTree : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(root_ / "outer/repo/.git");
    fs::create_directories(root_ / "outer/repo/ml/trainjobs");
    fs::create_directories(root_ / "outer/bare/ml");
  }
  void Touch(const fs::path& file) { std::ofstream(root_ / file) << "target: trainer-v2.1\n"; }
  std::string Path(const fs::path& relative) { return (root_ / relative).lexically_normal().string(); }

  testkit::TempDir temp_{"app-config"};
  const fs::path root_ = temp_.root();
};

TEST_F(ConfigTree, FoundInAParentFolderOfTheFirstPath) {
  Touch("outer/repo/ml/.tjrender.yaml");
  EXPECT_EQ(RepoConfigPath({Path("outer/repo/ml/trainjobs")}), Path("outer/repo/ml/.tjrender.yaml"));
  // A file's own folder is where the search starts.
  EXPECT_EQ(RepoConfigPath({Path("outer/repo/ml/trainjobs/job.yaml")}), Path("outer/repo/ml/.tjrender.yaml"));
}

TEST_F(ConfigTree, TheNearestWins) {
  Touch("outer/repo/.tjrender.yaml");
  Touch("outer/repo/ml/trainjobs/.tjrender.yaml");
  EXPECT_EQ(RepoConfigPath({Path("outer/repo/ml/trainjobs")}), Path("outer/repo/ml/trainjobs/.tjrender.yaml"));
}

TEST_F(ConfigTree, TheSearchStopsAtTheRepositoryRoot) {
  Touch("outer/.tjrender.yaml");
  // Above the folder holding .git nothing is read; the answer names the
  // file in the first folder, which does not exist.
  EXPECT_EQ(RepoConfigPath({Path("outer/repo/ml/trainjobs")}), Path("outer/repo/ml/trainjobs/.tjrender.yaml"));
  // Without a repository the search goes on upwards.
  EXPECT_EQ(RepoConfigPath({Path("outer/bare/ml")}), Path("outer/.tjrender.yaml"));
}

}  // namespace
}  // namespace tjr::app
