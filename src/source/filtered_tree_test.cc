#include "source/filtered_tree.h"

#include <gtest/gtest.h>

#include "source/disk_tree.h"
#include "testkit/temp_dir.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

const std::vector<std::string> kExtensions = {".json", ".yaml", ".yml"};

std::vector<std::string> Names(const ExpandedPaths& expanded) {
  std::vector<std::string> names;
  for (const InputFile& file : expanded.files) names.push_back(file.name);
  return names;
}

TEST(FilteredTreeTest, HidesConfigAndAppliesGlobsBelowBase) {
  testkit::TempDir dir;
  for (const char* name : {"repo/.tjrender.yaml", "repo/jobs/a.yaml", "repo/jobs/b-draft.yaml",
                           "repo/other/c.yaml", "repo/jobs/sub/.tjrender.yaml"}) {
    dir.Write(name, "");
  }
  DiskTree disk;
  RootedTree rooted(disk, dir.root());
  FilteredTree filtered(rooted, ".tjrender.yaml", "repo", {{"jobs/**"}, {"*-draft.yaml"}});
  EXPECT_EQ(Names(ExpandPaths(filtered, {"repo"}, kExtensions)),
            (std::vector<std::string>{"repo/jobs/a.yaml"}));
  // Named on the command line: read whatever the filter says.
  EXPECT_EQ(Names(ExpandPaths(filtered, {"repo/other/c.yaml"}, kExtensions)),
            (std::vector<std::string>{"repo/other/c.yaml"}));
  EXPECT_FALSE(filtered.Accepts("repo/other/c.yaml"));
  EXPECT_TRUE(filtered.Accepts("elsewhere/c.yaml"));

  FilteredTree only_hidden(rooted, ".tjrender.yaml", ".", {});
  EXPECT_EQ(Names(ExpandPaths(only_hidden, {"."}, kExtensions)),
            (std::vector<std::string>{"repo/jobs/a.yaml", "repo/jobs/b-draft.yaml",
                                      "repo/other/c.yaml"}));
}

TEST(RootedTreeTest, PathsAreRelativeToTheRoot) {
  testkit::TempDir dir;
  dir.Write("a/b.yaml", "x: 1\n");
  DiskTree disk;
  RootedTree rooted(disk, dir.root());
  EXPECT_EQ(*rooted.Stat("."), EntryType::kDirectory);
  EXPECT_EQ(*rooted.Read("a/b.yaml", 100), "x: 1\n");
  Result<std::string> missing = rooted.Read("a/c.yaml", 100);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(*missing.error().location.file, "a/c.yaml");
  EXPECT_EQ(Names(ExpandPaths(rooted, {"a"}, kExtensions)),
            (std::vector<std::string>{"a/b.yaml"}));
}

}  // namespace
}  // namespace tjr::source
