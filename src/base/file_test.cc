#include "base/file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace tjr {
namespace {

std::string TempDir() {
  std::string dir = testing::TempDir() + "tjr-file-XXXXXX";
  EXPECT_NE(::mkdtemp(dir.data()), nullptr);
  return dir;
}

TEST(FileTest, WritesAtomicallyAndReadsBack) {
  std::string path = TempDir() + "/out.yaml";
  ASSERT_TRUE(WriteFileAtomically(path, "a: 1\n").ok());
  auto read = ReadFile(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "a: 1\n");
}

TEST(FileTest, KeepsTheFileWhenBytesAreUnchanged) {
  std::string path = TempDir() + "/same.yaml";
  ASSERT_TRUE(WriteFileAtomically(path, "x\n").ok());
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  ASSERT_TRUE(WriteFileAtomically(path, "x\n").ok());
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);  // not replaced by a rename
}

TEST(FileTest, RefusesFilesOverTheLimitAndMissingFiles) {
  std::string path = TempDir() + "/big";
  ASSERT_TRUE(WriteFileAtomically(path, std::string(100, 'a')).ok());
  auto big = ReadFile(path, 10);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("larger than the limit of 10"), std::string::npos);
  auto missing = ReadFile(path + "-none");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().ToString().find("cannot open: No such file"), std::string::npos);
}

}  // namespace
}  // namespace tjr
