#include "batch/inventory_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "base/file.h"
#include "testkit/temp_dir.h"

namespace tjr::batch {
namespace {

const std::string kHeader = "tjrender-inventory 2\tctx\n";
const std::string kBlobA(40, 'a');
const std::string kBlobB(40, 'b');
const std::string kBlobC(40, 'c');

Entry Job(const std::string& name, std::uint32_t line = 1) {
  Entry entry;
  entry.kind = "TrainJob";
  entry.namespace_ = "team";
  entry.name = name;
  entry.file = "ignored.yaml";
  entry.line = line;
  entry.column = 1;
  entry.runtime_key = "ClusterTrainingRuntime/torch";
  return entry;
}

std::string JobLine(const std::string& blob, const std::string& name, const std::string& line = "1",
                    const std::string& column = "1") {
  return blob + "\tTrainJob\tteam\t" + name + "\t" + line + "\t" + column + "\tClusterTrainingRuntime/torch\n";
}

class InventoryCacheTest : public ::testing::Test {
 protected:
  // A cache read from a file holding `text`.
  InventoryCache With(const std::string& text, const std::string& context = "ctx") {
    dir_.Write("cache", text);
    return InventoryCache::Load(path(), context);
  }
  std::string path() const { return dir_.Path("cache"); }
  std::string Text() const { return ReadFile(path()).value(); }

  // The names Find gives for `blob`, or {"-"} when it is not cached.
  static std::vector<std::string> Names(InventoryCache& cache, const std::string& blob) {
    std::vector<Entry> entries;
    if (!cache.Find(blob, "f.yaml", &entries)) return {"-"};
    std::vector<std::string> names;
    for (const Entry& entry : entries) {
      EXPECT_EQ(entry.file, "f.yaml");
      names.push_back(entry.name);
    }
    return names;
  }

  testkit::TempDir dir_;
};

using Strings = std::vector<std::string>;

TEST_F(InventoryCacheTest, SavesWhatWasPutAndReadsItBack) {
  InventoryCache cache = With("");
  EXPECT_EQ(cache.size(), 0u);
  cache.Put(kBlobB, std::vector<Entry>{Job("b1", 3), Job("b2", 12)});
  cache.Put(kBlobA, {});
  EXPECT_EQ(Names(cache, kBlobB), (Strings{"b1", "b2"}));  // found before it is saved
  ASSERT_TRUE(cache.Save().ok());
  EXPECT_EQ(Text(), kHeader + kBlobA + "\n" + JobLine(kBlobB, "b1", "3") + JobLine(kBlobB, "b2", "12"));

  InventoryCache read = InventoryCache::Load(path(), "ctx");
  EXPECT_EQ(read.size(), 2u);
  std::vector<Entry> entries{Job("before")};
  ASSERT_TRUE(read.Find(kBlobB, "jobs/b.yaml", &entries));
  ASSERT_EQ(entries.size(), 3u);  // appended
  EXPECT_EQ(entries[2].kind, "TrainJob");
  EXPECT_EQ(entries[2].namespace_, "team");
  EXPECT_EQ(entries[2].name, "b2");
  EXPECT_EQ(entries[2].file, "jobs/b.yaml");
  EXPECT_EQ(entries[2].line, 12u);
  EXPECT_EQ(entries[2].column, 1u);
  EXPECT_EQ(entries[2].runtime_key, "ClusterTrainingRuntime/torch");
  EXPECT_EQ(Names(read, kBlobA), Strings{});
  EXPECT_EQ(Names(read, kBlobC), Strings{"-"});
  EXPECT_EQ(Names(read, ""), Strings{"-"});
}

TEST_F(InventoryCacheTest, SaveKeepsTheBlobsUsedAndWritesOnlyWhenOneWasAdded) {
  const std::string text = kHeader + JobLine(kBlobA, "a") + JobLine(kBlobB, "b");
  InventoryCache unchanged = With(text);
  EXPECT_EQ(Names(unchanged, kBlobA), Strings{"a"});
  ASSERT_TRUE(unchanged.Save().ok());
  EXPECT_EQ(Text(), text);  // only forgetting kBlobB: not rewritten

  InventoryCache added = With(text);
  EXPECT_EQ(Names(added, kBlobB), Strings{"b"});
  added.Put(kBlobA, std::vector<Entry>{Job("other")});  // known: marked used, not replaced
  added.Put(kBlobC, std::vector<Entry>{Job("c")});
  ASSERT_TRUE(added.Save().ok());
  EXPECT_EQ(Text(), text + JobLine(kBlobC, "c"));

  InventoryCache forgetting = With(text);
  EXPECT_EQ(Names(forgetting, kBlobB), Strings{"b"});
  forgetting.Put(kBlobC, std::vector<Entry>{Job("c")});
  ASSERT_TRUE(forgetting.Save().ok());
  EXPECT_EQ(Text(), kHeader + JobLine(kBlobB, "b") + JobLine(kBlobC, "c"));
}

TEST_F(InventoryCacheTest, AnotherHeaderOrContextIsAnEmptyCache) {
  const std::string lines = JobLine(kBlobA, "a");
  EXPECT_EQ(With(kHeader + lines, "other").size(), 0u);
  EXPECT_EQ(With("tjrender-inventory 0\tctx\n" + lines).size(), 0u);
  // Version 1 had no column: its objects would be reported at column 0.
  EXPECT_EQ(With("tjrender-inventory 1\tctx\n" + kBlobA + "\tTrainJob\tteam\ta\t1\tClusterTrainingRuntime/torch\n").size(), 0u);
  EXPECT_EQ(With("tjrender-inventory 2\tctx" + lines).size(), 0u);  // no newline after the header
  EXPECT_EQ(With("tjrender-inventory 2\tctx").size(), 0u);
  InventoryCache fine = With(kHeader + lines);
  EXPECT_EQ(Names(fine, kBlobA), Strings{"a"});
}

TEST_F(InventoryCacheTest, ABlobWithALineItCannotReadIsNotCached) {
  const std::string good = JobLine(kBlobC, "c");
  const std::vector<std::string> broken = {
      kBlobA + "\tTrainJob\tteam\ta\t1\t1\n",                           // six fields
      kBlobA + "\tTrainJob\tteam\ta\t1\tClusterTrainingRuntime/torch\n",  // six: version 1's line
      kBlobA + "\tTrainJob\tteam\ta\t1\t1\tx\ty\n",                     // eight
      kBlobA + "\tPod\tteam\ta\t1\t1\tClusterTrainingRuntime/torch\n",  // not an inventory kind
      JobLine(kBlobA, "a", "1", "x"),                                   // column not a number
      JobLine(kBlobA, "a", "1", ""),
      JobLine(kBlobA, "a", "x1"),                                       // line not a number
      JobLine(kBlobA, "a", ""),
      JobLine(kBlobA, "a", "4294967296"),                               // over 32 bits
      JobLine(kBlobA, "a", "-1"),
      JobLine(kBlobA, "a") + kBlobA + "\n",                             // "no objects" beside one
      JobLine(kBlobA, "a") + JobLine(kBlobB, "b") + JobLine(kBlobA, "a2"),  // lines apart
  };
  for (const std::string& lines : broken) {
    InventoryCache cache = With(kHeader + lines + good);
    EXPECT_EQ(Names(cache, kBlobA), Strings{"-"}) << lines;
    EXPECT_EQ(Names(cache, kBlobC), Strings{"c"}) << lines;
    // Parsing it again puts it back, and the save writes it whole.
    cache.Put(kBlobA, std::vector<Entry>{Job("a")});
    EXPECT_EQ(Names(cache, kBlobA), Strings{"a"}) << lines;
    ASSERT_TRUE(cache.Save().ok());
    EXPECT_EQ(Text(), kHeader + JobLine(kBlobA, "a") + good) << lines;
  }
  // A second line of a good blob that is broken spoils the whole blob.
  InventoryCache half = With(kHeader + JobLine(kBlobA, "a") + kBlobA + "\tTrainJob\n" + good);
  EXPECT_EQ(Names(half, kBlobA), Strings{"-"});
}

TEST_F(InventoryCacheTest, ATornLastLineDropsItsBlob) {
  InventoryCache torn = With(kHeader + JobLine(kBlobA, "a") + JobLine(kBlobC, "c1") +
                             kBlobC + "\tTrainJob\tteam\tc2\t1\t1\tClusterTraining");
  EXPECT_EQ(Names(torn, kBlobA), Strings{"a"});
  EXPECT_EQ(Names(torn, kBlobC), Strings{"-"});
  EXPECT_EQ(torn.size(), 1u);
  InventoryCache cut = With(kHeader + JobLine(kBlobA, "a") + kBlobB.substr(0, 7));
  EXPECT_EQ(Names(cut, kBlobA), Strings{"a"});
}

TEST_F(InventoryCacheTest, AnyOrderIsRead) {
  InventoryCache cache = With(kHeader + JobLine(kBlobC, "c") + "\n" + JobLine(kBlobA, "a1") +
                              JobLine(kBlobA, "a2") + kBlobB + "\n");
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(Names(cache, kBlobA), (Strings{"a1", "a2"}));
  EXPECT_EQ(Names(cache, kBlobB), Strings{});
  EXPECT_EQ(Names(cache, kBlobC), Strings{"c"});
  cache.Put(std::string(40, 'd'), {});
  ASSERT_TRUE(cache.Save().ok());
  EXPECT_EQ(Text(), kHeader + JobLine(kBlobA, "a1") + JobLine(kBlobA, "a2") + kBlobB + "\n" +
                        JobLine(kBlobC, "c") + std::string(40, 'd') + "\n");
}

TEST_F(InventoryCacheTest, BlobsSharingTheirFirstBytesAreToldApart) {
  const Strings blobs = {"0123456789b", "0123456789a", "01234567", "0123", "01234567\x01", "\xff"};
  std::string text = kHeader;
  for (const std::string& blob : blobs) text += JobLine(blob, "n" + blob);
  InventoryCache cache = With(text);
  for (const std::string& blob : blobs) EXPECT_EQ(Names(cache, blob), Strings{"n" + blob}) << blob;
  EXPECT_EQ(Names(cache, "0123456789"), Strings{"-"});
  EXPECT_EQ(Names(cache, "012345678"), Strings{"-"});
}

TEST_F(InventoryCacheTest, PutsAndFindsInterleavedAreSavedSorted) {
  InventoryCache cache = With(kHeader + JobLine(kBlobB, "b"));
  std::string expected;
  for (int i = 199; i >= 0; --i) {
    const std::string blob = (i < 10 ? "0" : "") + std::to_string(i) + std::string(38, 'f');
    EXPECT_EQ(Names(cache, blob), Strings{"-"});
    cache.Put(blob, std::vector<Entry>{Job("j" + std::to_string(i))});
    cache.Put(blob, std::vector<Entry>{Job("again")});  // the first put stays
    EXPECT_EQ(Names(cache, blob), Strings{"j" + std::to_string(i)});
  }
  std::vector<std::string> lines;
  for (int i = 0; i < 200; ++i) {
    lines.push_back(JobLine((i < 10 ? "0" : "") + std::to_string(i) + std::string(38, 'f'), "j" + std::to_string(i)));
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& line : lines) expected += line;
  EXPECT_EQ(cache.size(), 201u);
  ASSERT_TRUE(cache.Save().ok());
  EXPECT_EQ(Text(), kHeader + expected);  // kBlobB was not used in this run
}

TEST_F(InventoryCacheTest, WhatCannotBeStoredIsNotPut) {
  InventoryCache cache = With("");
  Entry tabbed = Job("a\tb");
  cache.Put(kBlobA, std::vector<Entry>{tabbed});
  cache.Put("a\nb", {});
  cache.Put("", {});
  EXPECT_EQ(cache.size(), 0u);
  ASSERT_TRUE(cache.Save().ok());
  EXPECT_EQ(Text(), "");  // nothing added: not written
}

TEST_F(InventoryCacheTest, GarbageNeverCrashes) {
  std::mt19937 random(7);
  const std::string alphabet = std::string("ab\t\n19TrainJobClusterTrainingRuntime") + '\0';
  const std::string valid = kHeader + JobLine(kBlobA, "a") + kBlobB + "\n" + JobLine(kBlobC, "c");
  for (int round = 0; round < 300; ++round) {
    std::string text = valid;
    // Flip, cut or insert a few bytes after the header.
    for (int edit = 0; edit < 3; ++edit) {
      std::size_t at = kHeader.size() + random() % (text.size() - kHeader.size() + 1);
      char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0: if (at < text.size()) text[at] = c; break;
        case 1: text.insert(at, 1, c); break;
        default: text.resize(at); break;
      }
    }
    InventoryCache cache = With(text);
    for (const std::string& blob : {kBlobA, kBlobB, kBlobC, std::string("ab")}) {
      std::vector<Entry> entries;
      if (cache.Find(blob, "f", &entries)) {
        for (const Entry& entry : entries) EXPECT_FALSE(entry.kind.empty());
      } else {
        EXPECT_TRUE(entries.empty());
      }
    }
    cache.Put(std::string(40, 'e'), {});
    EXPECT_TRUE(cache.Save().ok());
    // What was saved reads back.
    InventoryCache again = InventoryCache::Load(path(), "ctx");
    std::vector<Entry> entries;
    EXPECT_TRUE(again.Find(std::string(40, 'e'), "f", &entries));
  }
}

}  // namespace
}  // namespace tjr::batch
