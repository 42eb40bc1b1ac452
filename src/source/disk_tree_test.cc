#include "source/disk_tree.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "source/scratch_dir.h"

namespace tjr::source {
namespace {

TEST(DiskTreeTest, StatFollowsLinksAndNamesBrokenOnes) {
  ScratchDir dir;
  dir.Write("file.yaml", "a: 1\n");
  dir.MakeDir("sub");
  dir.Link("to-file", "file.yaml");
  dir.Link("to-sub", "sub");
  dir.Link("broken", "missing.yaml");
  dir.Fifo("pipe");
  DiskTree tree;
  EXPECT_EQ(*tree.Stat(dir.Path("file.yaml")), EntryType::kFile);
  EXPECT_EQ(*tree.Stat(dir.Path("sub")), EntryType::kDirectory);
  EXPECT_EQ(*tree.Stat(dir.Path("to-file")), EntryType::kFile);
  EXPECT_EQ(*tree.Stat(dir.Path("to-sub")), EntryType::kDirectory);
  EXPECT_EQ(*tree.Stat(dir.Path("pipe")), EntryType::kOther);

  Result<EntryType> broken = tree.Stat(dir.Path("broken"));
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().ToString(),
            dir.Path("broken") + ": error: broken symbolic link: its target does not exist");
  EXPECT_EQ(broken.error().category, Category::kInput);

  Result<EntryType> missing = tree.Stat(dir.Path("nothing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().ToString(),
            dir.Path("nothing") + ": error: cannot stat: No such file or directory");
}

TEST(DiskTreeTest, ListReportsLinksAsLinks) {
  ScratchDir dir;
  dir.Write("file.yaml", "");
  dir.MakeDir("sub");
  dir.Link("to-sub", "sub");
  dir.Fifo("pipe");
  Result<std::vector<DirEntry>> entries = DiskTree().List(dir.root());
  ASSERT_TRUE(entries.ok());
  std::vector<std::pair<std::string, EntryType>> got;
  for (const DirEntry& entry : *entries) got.emplace_back(entry.name, entry.type);
  std::sort(got.begin(), got.end());
  std::vector<std::pair<std::string, EntryType>> want = {
      {"file.yaml", EntryType::kFile},
      {"pipe", EntryType::kOther},
      {"sub", EntryType::kDirectory},
      {"to-sub", EntryType::kSymlink},
  };
  EXPECT_EQ(got, want);
}

TEST(DiskTreeTest, ListOfAFileIsAnError) {
  ScratchDir dir;
  dir.Write("file.yaml", "");
  Result<std::vector<DirEntry>> entries = DiskTree().List(dir.Path("file.yaml"));
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.error().ToString(),
            dir.Path("file.yaml") + ": error: cannot list directory: Not a directory");
}

TEST(DiskTreeTest, ResolveGivesTheCanonicalTarget) {
  ScratchDir dir;
  dir.Write("a/file.yaml", "");
  dir.Link("b/link.yaml", "../a/file.yaml");
  DiskTree tree;
  Result<std::string> root = tree.Resolve(dir.root());
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(*tree.Resolve(dir.Path("b/link.yaml")), *root + "/a/file.yaml");
  EXPECT_EQ(*tree.Resolve(dir.Path("b/../a/./file.yaml")), *root + "/a/file.yaml");
  EXPECT_FALSE(tree.Resolve(dir.Path("missing")).ok());
}

TEST(DiskTreeTest, ReadAppliesTheSizeLimit) {
  ScratchDir dir;
  dir.Write("file.yaml", "0123456789");
  DiskTree tree;
  EXPECT_EQ(*tree.Read(dir.Path("file.yaml"), 10), "0123456789");
  Result<std::string> big = tree.Read(dir.Path("file.yaml"), 9);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().ToString(),
            dir.Path("file.yaml") + ": error: file is 10 bytes, larger than the limit of 9");
}

}  // namespace
}  // namespace tjr::source
