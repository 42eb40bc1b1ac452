#include "base/file.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"

namespace tjr {
namespace {

TEST(FileTest, WritesAtomicallyAndReadsBack) {
  const testkit::TempDir dir("file");
  std::string path = dir / "out.yaml";
  ASSERT_TRUE(WriteFileAtomically(path, "a: 1\n").ok());
  auto read = ReadFile(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "a: 1\n");
}

TEST(FileTest, KeepsTheFileWhenBytesAreUnchanged) {
  const testkit::TempDir dir("file");
  std::string path = dir / "same.yaml";
  ASSERT_TRUE(WriteFileAtomically(path, "x\n").ok());
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  ASSERT_TRUE(WriteFileAtomically(path, "x\n").ok());
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);  // not replaced by a rename
}

TEST(FileTest, RefusesFilesOverTheLimitAndMissingFiles) {
  const testkit::TempDir dir("file");
  std::string path = dir / "big";
  ASSERT_TRUE(WriteFileAtomically(path, std::string(100, 'a')).ok());
  auto big = ReadFile(path, 10);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("larger than the limit of 10"), std::string::npos);
  auto missing = ReadFile(path + "-none");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().ToString().find("cannot open: No such file"), std::string::npos);
}

// 1 GiB on stdin was read whole (1.9 GB RSS) before the 64 MiB check. A
// writer that never stops must see the reader give up one chunk past the
// limit: the bytes the writer managed to hand over are bounded by the
// limit, one read, and the pipe's buffer.
TEST(FileTest, AStreamIsRefusedAsSoonAsItPassesTheLimit) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ::signal(SIGPIPE, SIG_IGN);
  std::size_t handed_over = 0;
  std::thread writer([&] {
    const std::string chunk(1 << 16, 'x');
    for (int i = 0; i < 16384; ++i) {  // 1 GiB unless the reader stops
      ssize_t n = ::write(pipe_fds[1], chunk.data(), chunk.size());
      if (n <= 0) break;
      handed_over += static_cast<std::size_t>(n);
    }
    ::close(pipe_fds[1]);
  });
  const std::size_t limit = 1 << 20;
  Result<std::string> read = ReadDescriptor(pipe_fds[0], "<stdin>", limit);
  ::close(pipe_fds[0]);  // the writer's next write fails
  writer.join();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().ToString().substr(0, 93),
            "<stdin>: error: input is larger than the limit of 1048576 bytes (tjrender's limit per file); ");
  EXPECT_EQ(read.error().rule, kRuleInputTooLarge);
  // The limit, one read of 64 KiB, the pipe's buffer (64 KiB by default, at
  // most 1 MiB unprivileged) and the write in flight: far below the 1 GiB.
  EXPECT_LE(handed_over, limit + (std::size_t{3} << 20));
}

// open(2) of a FIFO for reading waits for a writer; a FIFO named as a file
// hung the run forever. It is refused without blocking.
TEST(FileTest, AFifoOrDeviceIsRefusedWithoutBlocking) {
  const testkit::TempDir dir("file");
  const std::string fifo = dir / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Result<std::string> read = ReadFile(fifo);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("is not a regular file but a FIFO"), std::string::npos);
  Result<std::string> device = ReadFile("/dev/zero");
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.error().message.find("but a device"), std::string::npos);
}

TEST(FileTest, StampsTellVersionsApart) {
  const testkit::TempDir dir("file");
  const std::string path = dir / "a.yaml";
  ASSERT_TRUE(WriteFileAtomically(path, "a: 1\n").ok());
  FileStamp stamp;
  ASSERT_TRUE(ReadFile(path, 100, &stamp).ok());
  EXPECT_EQ(StampOf(path), stamp);
  ASSERT_TRUE(WriteFileAtomically(path, "a: 22\n").ok());  // a new inode, another size
  EXPECT_NE(StampOf(path), stamp);
  EXPECT_FALSE(StampOf(path + "-none").has_value());
}

}  // namespace
}  // namespace tjr
