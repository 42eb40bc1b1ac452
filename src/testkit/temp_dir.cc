#include "testkit/temp_dir.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace tjr::testkit {

TempDir::TempDir(std::string_view tag) {
  static std::atomic<int> counter{0};
  root_ = std::filesystem::temp_directory_path() /
          ("tjrender-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
  std::filesystem::create_directories(root_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

void TempDir::Write(std::string_view relative, std::string_view content) const {
  const std::filesystem::path path = root_ / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

void TempDir::MakeDir(std::string_view relative) const { std::filesystem::create_directories(root_ / relative); }

std::string TempDir::Read(std::string_view relative) const {
  std::ifstream in(root_ / relative, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string SourcePath(std::string_view relative) {
  const char* root = std::getenv("TJRENDER_SOURCE_ROOT");
  return std::string(root != nullptr ? root : "..") + "/" + std::string(relative);
}

}  // namespace tjr::testkit
