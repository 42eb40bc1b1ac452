#include "source/memory_tree.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "source/loader.h"

namespace tjr::source {
namespace {

std::vector<std::string> Names(const std::vector<DirEntry>& entries) {
  std::vector<std::string> names;
  for (const DirEntry& e : entries) names.push_back(e.name + (e.type == EntryType::kDirectory ? "/" : ""));
  std::sort(names.begin(), names.end());
  return names;
}

TEST(MemoryTreeTest, FoldersAreThePathsPrefixes) {
  MemoryTree tree({{"input/a.yaml", "a"}, {"input/sub/b.yaml", "b"}, {"top.json", "{}"}});
  EXPECT_EQ(*tree.Stat("input"), EntryType::kDirectory);
  EXPECT_EQ(*tree.Stat("./input/"), EntryType::kDirectory);
  EXPECT_EQ(*tree.Stat("input/a.yaml"), EntryType::kFile);
  EXPECT_EQ(*tree.Stat("."), EntryType::kDirectory);
  EXPECT_FALSE(tree.Stat("inp").ok()) << "a prefix of a name is no folder";
  EXPECT_FALSE(tree.Stat("input/a").ok());
  EXPECT_EQ(Names(*tree.List(".")), (std::vector<std::string>{"input/", "top.json"}));
  EXPECT_EQ(Names(*tree.List("input")), (std::vector<std::string>{"a.yaml", "sub/"}));
  EXPECT_FALSE(tree.List("input/a.yaml").ok());
  EXPECT_EQ(*tree.Resolve("input/sub/../a.yaml"), "input/a.yaml");
}

TEST(MemoryTreeTest, ReadsKeepTheLimitAndNameThePath) {
  MemoryTree tree(std::map<std::string, std::string>{{"a.yaml", "0123456789"}});
  EXPECT_EQ(*tree.Read("a.yaml", 10), "0123456789");
  Result<std::string> over = tree.Read("a.yaml", 9);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().ToString(), "a.yaml: error: input is larger than the limit of 9 bytes");
  EXPECT_EQ(tree.Read("b.yaml", 10).error().ToString(), "b.yaml: error: no such file or directory");
}

TEST(MemoryTreeTest, TheLoaderReadsItAsARepository) {
  MemoryTree tree({{"input/job.yaml",
                    "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: j\n"},
                   {"input/notes.txt", "not a manifest"}});
  ManifestSet set = LoadManifests(tree, {"input"}, LoadOptions{});
  ASSERT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(set.manifests[0].id.name, "j");
  EXPECT_EQ(set.manifests[0].file, "input/job.yaml");
}

}  // namespace
}  // namespace tjr::source
