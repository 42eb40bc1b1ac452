#include "source/disk_tree.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

TEST(DiskTreeTest, StatFollowsLinksAndNamesBrokenOnes) {
  testkit::TempDir dir;
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
  testkit::TempDir dir;
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

OutputFile OutputAt(const std::string& path, std::string what) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return {static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino), std::move(what), ""};
}

// `render . -o - > rendered.yaml`: the shell creates rendered.yaml inside
// the folder before tjrender lists it.
TEST(DiskTreeTest, AFileThisRunWritesIsLeftOutOfListingsAndRefusedWhenNamed) {
  testkit::TempDir dir;
  dir.Write("job.yaml", "a: 1\n");
  dir.Write("rendered.yaml", "");
  dir.Link("link.yaml", "rendered.yaml");
  DiskTree tree(/*remember_reads=*/true, {OutputAt(dir.Path("rendered.yaml"), "tjrender's stdout")});
  Result<std::vector<DirEntry>> entries = tree.List(dir.root());
  ASSERT_TRUE(entries.ok());
  std::vector<std::pair<std::string, std::string>> got;
  for (const DirEntry& entry : *entries) got.emplace_back(entry.name, entry.left_out);
  std::sort(got.begin(), got.end());
  std::vector<std::pair<std::string, std::string>> want = {
      {"job.yaml", ""},
      {"link.yaml", ""},  // a link is its own inode; reading it is refused below
      {"rendered.yaml", "tjrender's stdout, written by this run"},
  };
  EXPECT_EQ(got, want);

  EXPECT_TRUE(tree.Read(dir.Path("job.yaml"), 100).ok());
  for (const char* name : {"rendered.yaml", "link.yaml"}) {
    Result<std::string> refused = tree.Read(dir.Path(name), 100);
    ASSERT_FALSE(refused.ok()) << name;
    EXPECT_EQ(refused.error().category, Category::kInput);
    EXPECT_EQ(refused.error().rule, kRuleOwnOutput);
    EXPECT_EQ(refused.error().ToString(), dir.Path(name) + ": error: left out: tjrender's stdout, written by this run");
  }
  // Another file with the same bytes (a copy) is an input like any other.
  dir.Write("copy.yaml", "");
  EXPECT_TRUE(tree.Read(dir.Path("copy.yaml"), 100).ok());
}

TEST(DiskTreeTest, ListOfAFileIsAnError) {
  testkit::TempDir dir;
  dir.Write("file.yaml", "");
  Result<std::vector<DirEntry>> entries = DiskTree().List(dir.Path("file.yaml"));
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.error().ToString(),
            dir.Path("file.yaml") + ": error: cannot list directory: Not a directory");
}

TEST(DiskTreeTest, ResolveGivesTheCanonicalTarget) {
  testkit::TempDir dir;
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
  testkit::TempDir dir;
  dir.Write("file.yaml", "0123456789");
  DiskTree tree;
  EXPECT_EQ(*tree.Read(dir.Path("file.yaml"), 10), "0123456789");
  Result<std::string> big = tree.Read(dir.Path("file.yaml"), 9);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().ToString(),
            dir.Path("file.yaml") + ": error: file is 10 bytes, larger than the limit of 9 (tjrender's limit per "
                                    "file); the cluster would refuse an object that large: kube-apiserver decodes "
                                    "request bodies of at most 3 MiB and etcd stores values of at most 1.5 MiB (its "
                                    "--max-request-bytes default)");
}

// A file rewritten in place (truncate, then write) and read between the
// two: the loader saw an empty file and silently dropped its TrainJob.
// The journal tells such a file apart at the end of the run, whether its
// size changed or only its bytes (within the timestamps' granularity).
TEST(DiskTreeTest, RemembersReadsAndFindsFilesChangedSince) {
  testkit::TempDir dir;
  dir.Write("steady.yaml", "a: 1\n");
  dir.Write("rewritten.yaml", "");  // caught between truncate and write
  dir.Write("same-size.yaml", "b: 1\n");
  DiskTree tree(/*remember_reads=*/true);
  ASSERT_TRUE(tree.Read(dir.Path("steady.yaml"), 100).ok());
  ASSERT_TRUE(tree.Read(dir.Path("rewritten.yaml"), 100).ok());
  ASSERT_TRUE(tree.Read(dir.Path("same-size.yaml"), 100).ok());
  EXPECT_TRUE(tree.ChangedSinceRead().empty());
  // Rewritten in place: the same inode, so only size, times or bytes tell.
  {
    std::FILE* file = std::fopen(dir.Path("rewritten.yaml").c_str(), "w");
    std::fputs("apiVersion: v1\n", file);
    std::fclose(file);
    file = std::fopen(dir.Path("same-size.yaml").c_str(), "w");
    std::fputs("b: 2\n", file);  // same size, maybe the same timestamp
    std::fclose(file);
  }
  std::vector<std::string> changed = tree.ChangedSinceRead();
  std::sort(changed.begin(), changed.end());
  EXPECT_EQ(changed, (std::vector<std::string>{dir.Path("rewritten.yaml"), dir.Path("same-size.yaml")}));
  // A tree that remembers nothing reports nothing.
  DiskTree plain;
  ASSERT_TRUE(plain.Read(dir.Path("steady.yaml"), 100).ok());
  EXPECT_TRUE(plain.ChangedSinceRead().empty());
}

}  // namespace
}  // namespace tjr::source
