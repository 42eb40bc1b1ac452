#pragma once
// Test-only: a folder tree under the system temp folder, removed when the
// object goes away. Used by the case-loading and runner tests.

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace tjr::conformance {

class TempTree {
 public:
  TempTree() {
    static std::atomic<int> counter{0};
    root_ = std::filesystem::temp_directory_path() /
            ("tjr-conformance-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~TempTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path operator/(std::string_view relative) const { return root_ / relative; }

  /// Writes `content` to `relative`, creating its folders.
  void Write(std::string_view relative, std::string_view content) const {
    std::filesystem::path path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }
  void MakeDir(std::string_view relative) const {
    std::filesystem::create_directories(root_ / relative);
  }
  std::string Read(std::string_view relative) const {
    std::ifstream in(root_ / relative, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  bool Exists(std::string_view relative) const {
    return std::filesystem::exists(root_ / relative);
  }

 private:
  std::filesystem::path root_;
};

}  // namespace tjr::conformance
