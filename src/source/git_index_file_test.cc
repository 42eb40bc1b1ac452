// ParseIndex (git_index_file.cc) against what `git ls-files --stage --debug`
// says of indexes git itself wrote, and against damaged files.
#include "source/git_index_file.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "testkit/git_repo.h"

namespace tjr::source {
namespace {
namespace fs = std::filesystem;

std::string GitOutput(const testkit::GitRepo& repo, const std::string& args) {
  const std::string command = "cd " + testkit::ShellQuote(repo.root()) + " && GIT_CONFIG_NOSYSTEM=1 HOME=" +
                              testkit::ShellQuote(repo.root()) + " git " + args + " 2>/dev/null";
  std::string text;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  ::pclose(pipe);
  return text;
}

std::string Hex(const RawOid& id) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t b : id) {
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return hex;
}

std::string Trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string ReadBytes(const std::string& path) {
  std::string text;
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  return text;
}

// One entry as `git ls-files --stage --debug` prints it, and the same
// fields of a parsed entry, in one format.
std::string Describe(const IndexEntry& e) {
  char line[8192];
  std::snprintf(line, sizeof line, "%06o %s %u\t%.*s ctime %u:%u mtime %u:%u dev %u ino %u uid %u gid %u size %u",
                e.mode, Hex(e.id).c_str(), e.stage, static_cast<int>(e.path.size()), e.path.data(), e.ctime_seconds,
                e.ctime_nanoseconds, e.mtime_seconds, e.mtime_nanoseconds, e.dev, e.ino, e.uid, e.gid, e.file_size);
  return line;
}

std::vector<std::string> GitDescribes(const testkit::GitRepo& repo) {
  std::vector<std::string> out;
  std::istringstream lines(GitOutput(repo, "ls-files --stage --debug"));
  std::string head;
  std::string line;
  std::map<std::string, std::string> fields;
  auto flush = [&] {
    if (head.empty()) return;
    out.push_back(head + " ctime " + fields["ctime:"] + " mtime " + fields["mtime:"] + " dev " + fields["dev:"] +
                  " ino " + fields["ino:"] + " uid " + fields["uid:"] + " gid " + fields["gid:"] + " size " +
                  fields["size:"]);
    head.clear();
    fields.clear();
  };
  while (std::getline(lines, line)) {
    if (line.rfind("  ", 0) != 0) {
      flush();
      head = line;
      continue;
    }
    std::istringstream words(line);
    for (std::string key, value; words >> key >> value;) fields[key] = value;
  }
  flush();
  return out;
}

IndexFile Parse(const testkit::GitRepo& repo) {
  Result<ReadIndex> read = ReadIndexFile(repo.Path(".git/index"));
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().ToString());
  return read.ok() ? std::move(read->index) : IndexFile{};
}

void ExpectSameAsGit(const testkit::GitRepo& repo, const IndexFile& index) {
  const std::vector<std::string> git = GitDescribes(repo);
  ASSERT_EQ(index.entries.size(), git.size());
  for (std::size_t i = 0; i < git.size(); ++i) EXPECT_EQ(Describe(index.entries[i]), git[i]);
}

// A repository with folders, an executable, a link, a long path and a
// submodule entry, committed.
void Populate(testkit::GitRepo& repo) {
  for (int i = 0; i < 40; ++i) repo.Write("d" + std::to_string(i % 3) + "/f" + std::to_string(i) + ".yaml", "x\n");
  repo.Write("a.txt", "a\n");
  repo.Write("a-b/c", "c\n");
  repo.Write("run.sh", "#!/bin/sh\n");
  fs::permissions(repo.Path("run.sh"), fs::perms::owner_exec, fs::perm_options::add);
  repo.Link("link", "a.txt");
  const std::string deep = std::string(120, 'p') + "/" + std::string(200, 'q') + "/" + std::string(100, 'r');
  repo.Write(deep, "deep\n");
  ASSERT_EQ(repo.Commit("base"), 0);
  ASSERT_EQ(repo.Git("update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,vendor"), 0);
  ASSERT_EQ(repo.Git("commit -q -m submodule"), 0);
}

TEST(GitIndexFileTest, Version2AsGitReadsIt) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  Populate(repo);
  const IndexFile index = Parse(repo);
  EXPECT_EQ(index.version, 2u);
  EXPECT_GT(index.entries.size(), 44u);
  ExpectSameAsGit(repo, index);
  EXPECT_FALSE(index.has_conflicts);
}

TEST(GitIndexFileTest, Version3WithIntentToAddAndSkipWorktree) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  Populate(repo);
  repo.Write("new.yaml", "n\n");
  ASSERT_EQ(repo.Git("add -N new.yaml"), 0);
  ASSERT_EQ(repo.Git("update-index --skip-worktree d1/f1.yaml"), 0);
  ASSERT_EQ(repo.Git("update-index --assume-unchanged a.txt"), 0);
  const IndexFile index = Parse(repo);
  EXPECT_EQ(index.version, 3u);
  ExpectSameAsGit(repo, index);
  std::map<std::string, const IndexEntry*> by_path;
  for (const IndexEntry& e : index.entries) by_path[std::string(e.path)] = &e;
  ASSERT_TRUE(by_path.count("new.yaml") && by_path.count("d1/f1.yaml") && by_path.count("a.txt"));
  EXPECT_TRUE(by_path["new.yaml"]->intent_to_add);
  EXPECT_TRUE(by_path["d1/f1.yaml"]->skip_worktree);
  EXPECT_TRUE(by_path["a.txt"]->assume_valid);
  EXPECT_FALSE(by_path["d0/f0.yaml"]->skip_worktree || by_path["d0/f0.yaml"]->intent_to_add ||
               by_path["d0/f0.yaml"]->assume_valid);
  EXPECT_TRUE(index.has_intent_to_add);
  EXPECT_TRUE(index.has_assume_valid);
  // git leaves the folders of an intent-to-add entry invalid up to the root.
  EXPECT_FALSE(index.has_root_tree);
}

TEST(GitIndexFileTest, Version4PrefixCompressedPaths) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  Populate(repo);
  ASSERT_EQ(repo.Git("update-index --index-version 4"), 0);
  repo.Write("d1/zz.yaml", "z\n");
  ASSERT_EQ(repo.Git("add d1/zz.yaml"), 0);
  const IndexFile index = Parse(repo);
  EXPECT_EQ(index.version, 4u);
  ExpectSameAsGit(repo, index);
}

TEST(GitIndexFileTest, CacheTreeAfterCommitAndAfterAdd) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  Populate(repo);
  IndexFile index = Parse(repo);
  ASSERT_TRUE(index.has_root_tree);
  EXPECT_EQ(Hex(index.root_tree), Trim(GitOutput(repo, "rev-parse HEAD^{tree}")));
  ASSERT_NE(index.CachedTreeOf("d1"), nullptr);
  EXPECT_EQ(Hex(*index.CachedTreeOf("d1")), Trim(GitOutput(repo, "rev-parse HEAD:d1")));
  const std::string deep = std::string(120, 'p') + "/" + std::string(200, 'q');
  ASSERT_NE(index.CachedTreeOf(deep), nullptr);
  EXPECT_EQ(Hex(*index.CachedTreeOf(deep)), Trim(GitOutput(repo, "rev-parse HEAD:" + deep)));
  EXPECT_EQ(index.CachedTreeOf("d1/f1.yaml"), nullptr);
  EXPECT_EQ(index.CachedTreeOf("nothing"), nullptr);

  // `git add` invalidates the folder and its parents; the others stay.
  repo.Write("d1/f1.yaml", "changed\n");
  ASSERT_EQ(repo.Git("add d1/f1.yaml"), 0);
  index = Parse(repo);
  EXPECT_FALSE(index.has_root_tree);
  EXPECT_EQ(index.CachedTreeOf(""), nullptr);
  EXPECT_EQ(index.CachedTreeOf("d1"), nullptr);
  ASSERT_NE(index.CachedTreeOf("d2"), nullptr);
  EXPECT_EQ(Hex(*index.CachedTreeOf("d2")), Trim(GitOutput(repo, "rev-parse HEAD:d2")));
}

TEST(GitIndexFileTest, ConflictsAreEntriesWithStages) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("a.yaml", "base\n");
  ASSERT_EQ(repo.Commit("base"), 0);
  ASSERT_EQ(repo.Git("checkout -q -b other"), 0);
  repo.Write("a.yaml", "other\n");
  ASSERT_EQ(repo.Commit("other"), 0);
  ASSERT_EQ(repo.Git("checkout -q main"), 0);
  repo.Write("a.yaml", "main\n");
  ASSERT_EQ(repo.Commit("main"), 0);
  EXPECT_NE(repo.Git("merge -q other"), 0);
  const IndexFile index = Parse(repo);
  ExpectSameAsGit(repo, index);
  EXPECT_TRUE(index.has_conflicts);
  ASSERT_EQ(index.entries.size(), 3u);
  EXPECT_EQ(index.entries[0].stage, 1);
  EXPECT_EQ(index.entries[2].stage, 3);
}

TEST(GitIndexFileTest, SplitAndSparseIndexesAreRefused) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  Populate(repo);
  ASSERT_EQ(repo.Git("update-index --split-index"), 0);
  // Refused at its first entry already: entries replacing the shared
  // index's have their paths stripped (the `link` extension says where).
  EXPECT_FALSE(ReadIndexFile(repo.Path(".git/index")).ok());
  repo.Write("d1/new.yaml", "n\n");
  ASSERT_EQ(repo.Git("add d1/new.yaml"), 0);
  EXPECT_FALSE(ReadIndexFile(repo.Path(".git/index")).ok());

  testkit::GitRepo sparse;
  Populate(sparse);
  if (sparse.Git("sparse-checkout init --cone --sparse-index") != 0 || sparse.Git("sparse-checkout set d1") != 0) {
    GTEST_SKIP() << "this git has no sparse index";
  }
  Result<ReadIndex> read = ReadIndexFile(sparse.Path(".git/index"));
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("sdir"), std::string::npos) << read.error().message;
}

// `bytes` placed so that its last byte is the last of a readable page: a
// read past it faults, so an over-read fails the test instead of passing
// unnoticed.
class GuardedBytes {
 public:
  explicit GuardedBytes(std::size_t capacity) {
    page_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    size_ = (capacity + page_ - 1) / page_ * page_ + page_;
    void* map = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base_ = map == MAP_FAILED ? nullptr : static_cast<char*>(map);
    if (base_ != nullptr) ::mprotect(base_ + size_ - page_, page_, PROT_NONE);
  }
  ~GuardedBytes() {
    if (base_ != nullptr) ::munmap(base_, size_);
  }
  GuardedBytes(const GuardedBytes&) = delete;
  GuardedBytes& operator=(const GuardedBytes&) = delete;
  bool ok() const { return base_ != nullptr; }
  std::string_view Place(std::string_view bytes) {
    char* end = base_ + size_ - page_;
    std::memcpy(end - bytes.size(), bytes.data(), bytes.size());
    return {end - bytes.size(), bytes.size()};
  }

 private:
  std::size_t page_ = 0;
  std::size_t size_ = 0;
  char* base_ = nullptr;
};

TEST(GitIndexFileTest, TruncatedAndDamagedFilesNeverCrash) {
  TJR_REQUIRE_GIT();
  std::vector<std::string> files;
  for (const char* version : {"2", "3", "4"}) {
    testkit::GitRepo repo;
    Populate(repo);
    repo.Write("n.yaml", "n\n");
    ASSERT_EQ(repo.Git(std::string("add -N n.yaml")), 0);  // an extended entry
    ASSERT_EQ(repo.Git(std::string("update-index --index-version ") + version), 0);
    files.push_back(ReadBytes(repo.Path(".git/index")));
    ASSERT_TRUE(ParseIndex(files.back()).ok());
  }
  std::mt19937 random(11);
  for (const std::string& bytes : files) {
    GuardedBytes guard(bytes.size());
    ASSERT_TRUE(guard.ok());
    // Every truncation: the checksum no longer where it was, entries or
    // extensions cut short.
    std::size_t refused = 0;
    for (std::size_t size = 0; size < bytes.size(); ++size) {
      if (!ParseIndex(guard.Place(std::string_view(bytes).substr(0, size))).ok()) ++refused;
    }
    EXPECT_GT(refused, bytes.size() * 9 / 10);
    // Random damage: a parse may succeed (a flipped timestamp is still an
    // index) but must stay within the bytes.
    for (int round = 0; round < 3000; ++round) {
      std::string damaged = bytes;
      const int flips = 1 + static_cast<int>(random() % 4);
      for (int f = 0; f < flips; ++f) {
        damaged[random() % damaged.size()] ^= static_cast<char>(1u << (random() % 8));
      }
      Result<IndexFile> parsed = ParseIndex(guard.Place(damaged));
      if (parsed.ok()) {
        for (const IndexEntry& e : parsed->entries) EXPECT_FALSE(e.path.empty());
      }
    }
  }
  EXPECT_FALSE(ParseIndex("").ok());
  EXPECT_FALSE(ParseIndex(std::string(40, '\0')).ok());
}

}  // namespace
}  // namespace tjr::source
