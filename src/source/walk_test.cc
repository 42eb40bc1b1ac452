#include "source/walk.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "source/disk_tree.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

const std::vector<std::string> kExtensions = {".json", ".yaml", ".yml"};

std::vector<std::string> Names(const ExpandedPaths& expanded) {
  std::vector<std::string> names;
  for (const InputFile& file : expanded.files) names.push_back(file.name);
  return names;
}

std::vector<std::string> Messages(const ExpandedPaths& expanded) {
  std::vector<std::string> messages;
  for (const Diagnostic& d : expanded.diagnostics) messages.push_back(d.ToString());
  return messages;
}

TEST(ExtensionTest, IsGoFilepathExt) {
  EXPECT_EQ(Extension("a/b.yaml"), ".yaml");
  EXPECT_EQ(Extension("a/b.tar.yml"), ".yml");
  EXPECT_EQ(Extension("a.d/b"), "");
  EXPECT_EQ(Extension("a/.yaml"), ".yaml");
  EXPECT_EQ(Extension("b."), ".");
  EXPECT_EQ(Extension(""), "");
}

TEST(InScopeTest, FoldersFilesAndTheWholeRepository) {
  EXPECT_TRUE(InScope("a/b.yaml", {"a"}));
  EXPECT_TRUE(InScope("a/b.yaml", {"x", "a/b.yaml"}));
  EXPECT_FALSE(InScope("ab/c.yaml", {"a"}));  // a folder, not a prefix
  EXPECT_FALSE(InScope("a", {"a/b"}));
  EXPECT_TRUE(InScope("a/b.yaml", {""}));
  EXPECT_TRUE(InScope("a/b.yaml", {"."}));
  EXPECT_FALSE(InScope("a/b.yaml", {}));
}

TEST(ExpandPathsTest, RecursesAndSortsByPathBytes) {
  testkit::TempDir dir;
  for (const char* name : {"z.yaml", "a.yaml", "a/b.yaml", "a/c/d.yml", "a-b.json", "B.yaml",
                           "a/z/deep/er/x.yaml"}) {
    dir.Write(name, "");
  }
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_TRUE(expanded.diagnostics.empty());
  const std::string r = dir.root() + "/";
  // Bytes, not Go's per-directory walk: "-" (0x2d) < "." (0x2e) < "/" (0x2f)
  // < "B" < "a".
  EXPECT_EQ(Names(expanded),
            (std::vector<std::string>{r + "B.yaml", r + "a-b.json", r + "a.yaml", r + "a/b.yaml",
                                      r + "a/c/d.yml", r + "a/z/deep/er/x.yaml", r + "z.yaml"}));
  for (const InputFile& file : expanded.files) {
    EXPECT_EQ(file.read_path, file.name);
    EXPECT_FALSE(file.is_stdin);
  }
}

TEST(ExpandPathsTest, FilesOfManyFoldersMergeIntoByteOrder) {
  // Each folder's files are sorted on their own and then merged: an odd
  // number of folders, nested ones, and names that sort around "/".
  testkit::TempDir dir;
  std::vector<std::string> expected;
  for (const char* folder : {"", "m/", "m/n/", "m.d/", "b/", "b/m/x/", "z-/"}) {
    for (const char* file : {"k.yaml", "a.yaml", "m.yaml", "z.json", "m-.yaml"}) {
      std::string name = std::string(folder) + file;
      dir.Write(name, "");
      expected.push_back(dir.root() + "/" + name);
    }
  }
  std::sort(expected.begin(), expected.end());
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_TRUE(expanded.diagnostics.empty());
  EXPECT_EQ(Names(expanded), expected);
}

TEST(ExpandPathsTest, DirectoriesReadOnlyKubectlExtensions) {
  testkit::TempDir dir;
  for (const char* name : {"a.yaml", "b.yml", "c.json", "d.YAML", "e.txt", "f.yaml.bak", "yaml",
                           "g.jsonl", "sub.yaml/h.yaml"}) {
    dir.Write(name, "");
  }
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  const std::string r = dir.root() + "/";
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{r + "a.yaml", r + "b.yml", r + "c.json",
                                                       r + "sub.yaml/h.yaml"}));
}

TEST(ExpandPathsTest, NamedFilesAreReadWhateverTheirExtension) {
  testkit::TempDir dir;
  dir.Write("notes.txt", "");
  dir.Write("b.yaml", "");
  dir.Write("a.yaml", "");
  // Command-line order is kept; only a directory's own files are sorted.
  ExpandedPaths expanded =
      ExpandPaths(DiskTree(), {dir.Path("notes.txt"), dir.Path("b.yaml"), dir.Path("a.yaml")},
                  kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("notes.txt"), dir.Path("b.yaml"),
                                                       dir.Path("a.yaml")}));
}

TEST(ExpandPathsTest, AFileThisRunWritesIsLeftOutWithANote) {
  testkit::TempDir dir;
  dir.Write("a/job.yaml", "");
  dir.Write("a/rendered.yaml", "");
  dir.Write("a/notes.txt", "");
  struct stat info {};
  ASSERT_EQ(::stat(dir.Path("a/rendered.yaml").c_str(), &info), 0);
  DiskTree tree(false, {{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                         "tjrender's stdout", ""}});
  ExpandedPaths expanded = ExpandPaths(tree, {dir.Path("a")}, kExtensions);
  EXPECT_EQ(Names(expanded), std::vector<std::string>{dir.Path("a/job.yaml")});
  EXPECT_EQ(Messages(expanded), std::vector<std::string>{dir.Path("a/rendered.yaml") +
                                                         ": note: left out: tjrender's stdout, written by this run"});
  EXPECT_TRUE(expanded.skipped.empty());

  // Redirected into a file no walk would read (stdout > notes.txt): no note.
  ASSERT_EQ(::stat(dir.Path("a/notes.txt").c_str(), &info), 0);
  DiskTree quiet(false, {{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                          "tjrender's stdout", ""}});
  ExpandedPaths plain = ExpandPaths(quiet, {dir.Path("a")}, kExtensions);
  EXPECT_EQ(Names(plain), (std::vector<std::string>{dir.Path("a/job.yaml"), dir.Path("a/rendered.yaml")}));
  EXPECT_TRUE(plain.diagnostics.empty());
}

TEST(ExpandPathsTest, AFileReachedTwiceIsReadOnce) {
  testkit::TempDir dir;
  dir.Write("a.yaml", "");
  dir.Write("b.yaml", "");
  ExpandedPaths expanded = ExpandPaths(
      DiskTree(), {dir.root() + "/./b.yaml", dir.root() + "/", dir.root(), "-", "-"}, kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.root() + "/./b.yaml",
                                                       dir.Path("a.yaml"), "<stdin>"}));
  EXPECT_TRUE(expanded.files.back().is_stdin);
  EXPECT_EQ(expanded.files.back().read_path, "-");
}

TEST(ExpandPathsTest, MissingPathIsAnErrorAndTheRestGoOn) {
  testkit::TempDir dir;
  dir.Write("a.yaml", "");
  ExpandedPaths expanded =
      ExpandPaths(DiskTree(), {dir.Path("missing"), dir.Path("a.yaml")}, kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("a.yaml")}));
  EXPECT_EQ(Messages(expanded), (std::vector<std::string>{
                                    dir.Path("missing") +
                                    ": error: cannot stat: No such file or directory"}));
}

TEST(ExpandPathsTest, DirectoryLinksAreNotFollowedSoLoopsEnd) {
  testkit::TempDir dir;
  dir.Write("a/x.yaml", "");
  dir.Link("a/loop", "..");
  dir.Link("a/self.yaml", ".");
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("a/x.yaml")}));
  ASSERT_EQ(expanded.diagnostics.size(), 2u);
  for (const Diagnostic& d : expanded.diagnostics) {
    EXPECT_EQ(d.severity, Severity::kNote);
    EXPECT_EQ(d.message,
              "skipped: symbolic link to a directory (not followed, so a tree cannot loop)");
  }
}

TEST(ExpandPathsTest, ANamedLinkToADirectoryIsFollowed) {
  testkit::TempDir dir;
  dir.Write("real/x.yaml", "");
  dir.Link("alias", "real");
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.Path("alias")}, kExtensions);
  EXPECT_TRUE(expanded.diagnostics.empty());
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("alias/x.yaml")}));
}

TEST(ExpandPathsTest, FileLinksAreReadOnlyInsideTheDirectory) {
  testkit::TempDir outside;
  outside.Write("secret.yaml", "");
  testkit::TempDir dir;
  dir.Write("real/x.yaml", "");
  dir.Link("in.yaml", "real/x.yaml");
  dir.Link("sub/up.yaml", "../real/x.yaml");
  dir.Link("out.yaml", outside.Path("secret.yaml"));
  dir.Link("out.txt", outside.Path("secret.yaml"));  // not a manifest name: not looked at
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("in.yaml"),
                                                       dir.Path("real/x.yaml"),
                                                       dir.Path("sub/up.yaml")}));
  std::string real = *DiskTree().Resolve(dir.Path("real/x.yaml"));
  EXPECT_EQ(expanded.files[0].read_path, real);
  EXPECT_EQ(expanded.files[2].read_path, real);
  std::string secret = *DiskTree().Resolve(outside.Path("secret.yaml"));
  EXPECT_EQ(Messages(expanded),
            (std::vector<std::string>{dir.Path("out.yaml") +
                                      ": error: symbolic link resolves to " + secret +
                                      ", outside the directory " + *DiskTree().Resolve(dir.root()) +
                                      " being read; name the file itself to read it"}));
  EXPECT_EQ(expanded.diagnostics[0].category, Category::kInput);

  // Named on the command line, the same link is read.
  ExpandedPaths named = ExpandPaths(DiskTree(), {dir.Path("out.yaml")}, kExtensions);
  EXPECT_TRUE(named.diagnostics.empty());
  EXPECT_EQ(Names(named), (std::vector<std::string>{dir.Path("out.yaml")}));
}

TEST(ExpandPathsTest, BrokenLinksMatterOnlyWithAManifestName) {
  testkit::TempDir dir;
  dir.Link("gone.yaml", "nowhere.yaml");
  dir.Link("gone.txt", "nowhere.txt");
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_TRUE(expanded.files.empty());
  EXPECT_EQ(Messages(expanded),
            (std::vector<std::string>{dir.Path("gone.yaml") +
                                      ": error: broken symbolic link: its target does not exist"}));
}

TEST(ExpandPathsTest, SpecialFilesAreSkippedNotOpened) {
  testkit::TempDir dir;
  dir.Fifo("pipe.yaml");  // opening it would block until a writer came
  dir.Fifo("pipe.txt");
  dir.Link("to-pipe.yaml", "pipe.yaml");
  dir.Write("a.yaml", "");
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("a.yaml")}));
  std::vector<std::string> messages = Messages(expanded);
  std::sort(messages.begin(), messages.end());
  EXPECT_EQ(messages, (std::vector<std::string>{
                          dir.Path("pipe.yaml") + ": note: skipped: not a regular file",
                          dir.Path("to-pipe.yaml") +
                              ": note: skipped: symbolic link to something not a regular file"}));
}

TEST(ExpandPathsTest, UnlistableDirectoryIsAnErrorAndTheRestGoOn) {
  if (testkit::RunningAsRoot()) GTEST_SKIP() << "permission bits do not stop root";
  testkit::TempDir dir;
  dir.Write("a.yaml", "");
  dir.Write("locked/b.yaml", "");
  std::filesystem::permissions(dir.Path("locked"), std::filesystem::perms::none);
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  std::filesystem::permissions(dir.Path("locked"), std::filesystem::perms::owner_all);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path("a.yaml")}));
  EXPECT_EQ(Messages(expanded),
            (std::vector<std::string>{dir.Path("locked") +
                                      ": error: cannot list directory: Permission denied"}));
}

TEST(ExpandPathsTest, DeepTreesDoNotExhaustTheStack) {
  testkit::TempDir dir;
  std::string relative;
  for (int i = 0; i < 200; ++i) relative += "d/";
  dir.Write(relative + "x.yaml", "");
  ExpandedPaths expanded = ExpandPaths(DiskTree(), {dir.root()}, kExtensions);
  EXPECT_EQ(Names(expanded), (std::vector<std::string>{dir.Path(relative + "x.yaml")}));
}

}  // namespace
}  // namespace tjr::source
