#include "source/git_pack_check.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "source/git_tree.h"
#include "testkit/git_repo.h"

namespace tjr::source {
namespace {

void PutBe32(std::string* out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((value >> shift) & 0xff));
}

// A version-2 index of objects whose names start with byte i (i < 256) at
// `offsets` (values of 2^31 or more go to the 64-bit table), and a pack
// checksum of 20 'P's.
std::string IndexV2(const std::vector<std::uint64_t>& offsets) {
  std::string out("\377tOc", 4);
  PutBe32(&out, 2);
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t count = 0;
    while (count < offsets.size() && count <= byte) ++count;
    PutBe32(&out, count);
  }
  for (std::size_t i = 0; i < offsets.size(); ++i) out += std::string(1, static_cast<char>(i)) + std::string(19, 'n');
  for (std::size_t i = 0; i < offsets.size(); ++i) PutBe32(&out, 0);  // CRCs
  std::vector<std::uint64_t> large;
  for (std::uint64_t offset : offsets) {
    if (offset < 0x80000000u) {
      PutBe32(&out, static_cast<std::uint32_t>(offset));
    } else {
      PutBe32(&out, 0x80000000u | static_cast<std::uint32_t>(large.size()));
      large.push_back(offset);
    }
  }
  for (std::uint64_t offset : large) {
    PutBe32(&out, static_cast<std::uint32_t>(offset >> 32));
    PutBe32(&out, static_cast<std::uint32_t>(offset));
  }
  return out + std::string(20, 'P') + std::string(20, 'I');
}

template <class T>
std::string Error(const Result<T>& result) {
  return result.ok() ? "ok" : result.error().message;
}

Status Check(const std::string& index, std::uint64_t pack_size) {
  Result<PackIndexSummary> summary = ReadPackIndexHeader(index);
  if (!summary.ok()) return summary.take_error();
  return CheckPackOffsets(index, *summary, pack_size);
}

TEST(GitPackCheckTest, AcceptsAWellFormedIndex) {
  const std::string index = IndexV2({12, 40, 100});
  Result<PackIndexSummary> summary = ReadPackIndexHeader(index);
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  EXPECT_EQ(summary->version, 2u);
  EXPECT_EQ(summary->objects, 3u);
  EXPECT_EQ(summary->pack_checksum, std::string(20, 'P'));
  EXPECT_EQ(Error(CheckPackOffsets(index, *summary, 200)), "ok");
  EXPECT_EQ(Error(Check(IndexV2({}), 32)), "ok");
  EXPECT_EQ(Error(Check(IndexV2({12, 0x123456789ull}), 0x200000000ull)), "ok");
}

// libgit2 1.5 computes 8 + 1024 + N*28 + 40 in 32 bits: for N = 2^32-1 it
// wraps to 1044, the index passes, and lookups read 120 GB past it.
TEST(GitPackCheckTest, AFanOutOfAllOnesIsTheWrongSizeNotAnOverflow) {
  std::string index = IndexV2({12, 40});
  for (std::size_t i = 8; i < 8 + 1024; ++i) index[i] = '\xff';
  EXPECT_EQ(Error(ReadPackIndexHeader(index)),
            "wrong index v2 file size: 1128 bytes, where the 4294967295 objects its fan-out table counts take "
            "from 120259085332 to 154618823684");
}

TEST(GitPackCheckTest, RefusesWhatGitRefuses) {
  const std::string good = IndexV2({12, 40, 100});
  EXPECT_EQ(Error(ReadPackIndexHeader(good.substr(0, 1000))), "index file is too small (1000 bytes)");
  EXPECT_EQ(Error(ReadPackIndexHeader(good.substr(0, 1100))),
            "wrong index v2 file size: 1100 bytes, where the 3 objects its fan-out table counts take from 1156 to 1172");
  std::string version = good;
  version[7] = 3;
  EXPECT_EQ(Error(ReadPackIndexHeader(version)), "index file is version 3 and is not supported");
  std::string decreasing = good;
  decreasing[8 + 4 * 200 + 3] = 0;  // entry 200: 0 after 3
  EXPECT_EQ(Error(ReadPackIndexHeader(decreasing)), "non-monotonic index (fan-out entry 200 is 0, after 3)");
  EXPECT_EQ(Error(ReadPackIndexHeader(good + std::string(4, '\0'))),
            "wrong index v2 file size: 4 bytes of 64-bit offsets are no whole number of offsets");
}

TEST(GitPackCheckTest, EveryOffsetLiesInsideThePack) {
  EXPECT_EQ(Error(Check(IndexV2({12, 40, 180}), 200)),
            "offset 180 of object 2 beyond end of packfile (truncated pack?): the pack has 200 bytes");
  EXPECT_EQ(Error(Check(IndexV2({3}), 200)), "offset 3 of object 0 lies in the pack's header (broken .idx?): the pack has 200 bytes");
  EXPECT_EQ(Error(Check(IndexV2({12, 0x123456789ull}), 4096)),
            "offset 4886718345 of object 1 beyond end of packfile (truncated pack?): the pack has 4096 bytes");
  // An entry of the 32-bit table naming a 64-bit slot the index lacks.
  std::string index = IndexV2({12, 40});
  const std::size_t second = 8 + 1024 + 2 * 24 + 4;
  index[second] = '\x80';
  index[second + 3] = 7;
  EXPECT_EQ(Error(Check(index, 200)),
            "offset beyond end of pack index (truncated index?): object 1 names 64-bit offset 7 of 0");
}

TEST(GitPackCheckTest, ThePackMatchesItsIndex) {
  Result<PackIndexSummary> summary = ReadPackIndexHeader(IndexV2({12, 40}));
  ASSERT_TRUE(summary.ok());
  std::string head("PACK", 4);
  PutBe32(&head, 2);
  PutBe32(&head, 2);
  const std::string tail(20, 'P');
  EXPECT_EQ(Error(CheckPackEnds(head, tail, 100, *summary)), "ok");
  EXPECT_EQ(Error(CheckPackEnds(head, tail, 20, *summary)), "file is far too short to be a packfile (20 bytes)");
  EXPECT_EQ(Error(CheckPackEnds("PACX" + head.substr(4), tail, 100, *summary)), "file is not a GIT packfile");
  std::string version = head;
  version[7] = 9;
  EXPECT_EQ(Error(CheckPackEnds(version, tail, 100, *summary)), "packfile is version 9 and not supported");
  std::string count = head;
  count[11] = 5;
  EXPECT_EQ(Error(CheckPackEnds(count, tail, 100, *summary)),
            "packfile claims to have 5 objects while index indicates 2 objects");
  EXPECT_EQ(Error(CheckPackEnds(head, std::string(20, 'Q'), 100, *summary)), "packfile does not match index");
}

// Through the adapter: a packed repository whose index is damaged is an
// input error at the index's path, before libgit2 reads it.
TEST(GitPackCheckTest, OpeningARevisionRefusesADamagedIndex) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("m/a.yaml", "a: 1\n");
  ASSERT_EQ(repo.Commit(), 0);
  ASSERT_EQ(repo.Git("gc -q"), 0);
  std::string index_path;
  for (const auto& entry : std::filesystem::directory_iterator(repo.root() + "/.git/objects/pack")) {
    if (entry.path().extension() == ".idx") index_path = entry.path().string();
  }
  ASSERT_FALSE(index_path.empty());
  Result<std::unique_ptr<GitTree>> clean = OpenGitRevision(repo.root(), "HEAD");
  ASSERT_TRUE(clean.ok()) << clean.error().ToString();
  std::string bytes;
  {
    std::ifstream in(index_path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (std::size_t i = 8; i < 8 + 1024; ++i) bytes[i] = '\xff';
  std::filesystem::permissions(index_path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::ofstream(index_path, std::ios::binary | std::ios::trunc) << bytes;
  Result<std::unique_ptr<GitTree>> damaged = OpenGitRevision(repo.root(), "HEAD");
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.error().category, Category::kInput);
  EXPECT_EQ(damaged.error().location.ToString(), index_path);
  EXPECT_EQ(damaged.error().message.rfind("damaged pack index: wrong index v2 file size: ", 0), 0u)
      << damaged.error().message;
}

}  // namespace
}  // namespace tjr::source
