#pragma once
// Test-only: running command handlers in-process with their output captured,
// and throw-away folders.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace tjr::cli::testing {

struct Outcome {
  int exit_code;
  std::string out;
  std::string err;
};

inline Outcome Invoke(int (*command)(const std::vector<std::string>&), const std::vector<std::string>& args) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  int code = command(args);
  std::string out = ::testing::internal::GetCapturedStdout();
  return {code, out, ::testing::internal::GetCapturedStderr()};
}

/// A folder of the source tree ("fixtures/trainer-repo").
inline std::string SourcePath(const std::string& relative) {
  const char* root = std::getenv("TJRENDER_SOURCE_ROOT");
  return std::string(root != nullptr ? root : "..") + "/" + relative;
}

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("tjrender-cli-t-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  void Write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name) << text;
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace tjr::cli::testing
