#include "source/git_loose_guard.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "source/git_tree.h"
#include "testkit/git_repo.h"

namespace tjr::source {
namespace {

std::string Compressed(const std::string& raw) {
  uLongf size = compressBound(raw.size());
  std::string out(size, '\0');
  EXPECT_EQ(compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                     raw.size()),
            Z_OK);
  out.resize(size);
  return out;
}

std::string Error(const Status& status) { return status.ok() ? "ok" : status.error().message; }

const std::string kBlob = std::string("blob 12") + '\0' + "hello world\n";

TEST(GitLooseGuardTest, AcceptsAWholeObject) {
  EXPECT_EQ(Error(CheckLooseObjectBytes(Compressed(kBlob), true)), "ok");
  EXPECT_EQ(Error(CheckLooseObjectBytes(Compressed(kBlob), false)), "ok");
  const std::string large = "blob 100000" + std::string(1, '\0') + std::string(100000, 'x');
  EXPECT_EQ(Error(CheckLooseObjectBytes(Compressed(large), true)), "ok");
}

// libgit2 1.5.1 loops forever on each of these (zstream.c: Z_BUF_ERROR is
// taken for progress).
TEST(GitLooseGuardTest, RefusesAStreamCutShort) {
  const std::string whole = Compressed(kBlob);
  EXPECT_EQ(Error(CheckLooseObjectBytes(whole.substr(0, whole.size() - 6), true)).rfind("truncated: its zlib stream ends early", 0), 0u);
  EXPECT_EQ(Error(CheckLooseObjectBytes(whole.substr(0, 4), false)),
            "truncated: its zlib stream ends before the object's header");
  const std::string large = Compressed("blob 100000" + std::string(1, '\0') + std::string(100000, 'x'));
  EXPECT_EQ(Error(CheckLooseObjectBytes(large.substr(0, large.size() / 2), true)).rfind("truncated: ", 0), 0u);
}

TEST(GitLooseGuardTest, RefusesWhatIsNoObject) {
  EXPECT_EQ(Error(CheckLooseObjectBytes("garbage garbage", true)), "not zlib-compressed");
  EXPECT_EQ(Error(CheckLooseObjectBytes("", false)), "not zlib-compressed");
  std::string corrupt = Compressed(kBlob);
  corrupt[4] ^= 0x55;
  EXPECT_EQ(Error(CheckLooseObjectBytes(corrupt, true)).rfind("its zlib stream is corrupt", 0), 0u)
      << Error(CheckLooseObjectBytes(corrupt, true));
  EXPECT_EQ(Error(CheckLooseObjectBytes(Compressed("blob 99" + std::string(1, '\0') + "abc"), true)),
            "its header says 99 bytes, its zlib stream holds 3");
  EXPECT_EQ(Error(CheckLooseObjectBytes(Compressed("no header at all"), true)),
            "no object header (TYPE SIZE NUL) at its start");
}

// Through the adapter: a revision whose root tree is a truncated loose
// object is an error naming the file, not a hang.
TEST(GitLooseGuardTest, OpeningARevisionWithATruncatedTreeFails) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  repo.Write("m/a.yaml", "a: 1\n");
  ASSERT_EQ(repo.Commit(), 0);
  Result<std::unique_ptr<GitTree>> clean = OpenGitRevision(repo.root(), "HEAD");
  ASSERT_TRUE(clean.ok()) << clean.error().ToString();
  const std::string id = (*clean)->revision_id();
  clean->reset();
  // The commit's own object, cut in half.
  const std::string path = repo.root() + "/.git/objects/" + id.substr(0, 2) + "/" + id.substr(2);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  Result<std::unique_ptr<GitTree>> damaged = OpenGitRevision(repo.root(), "HEAD");
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.error().location.ToString(), "HEAD");
  EXPECT_NE(damaged.error().message.find("damaged loose object " + path + ": truncated"), std::string::npos)
      << damaged.error().message;
}

}  // namespace
}  // namespace tjr::source
