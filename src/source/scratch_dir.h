#pragma once
// Test-only: a scratch folder under the system temp folder, removed when the
// object goes away, with the odd entries (links, FIFOs) the loader must
// survive.

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace tjr::source {

class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    root_ = (std::filesystem::temp_directory_path() /
             ("tjr-source-" + std::to_string(::getpid()) + "-" + std::to_string(++counter)))
                .string();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::permissions(root_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(root_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// The folder, without a trailing '/'.
  const std::string& root() const { return root_; }
  std::string Path(std::string_view relative) const { return root_ + "/" + std::string(relative); }

  /// Writes `content` to `relative`, creating its folders.
  void Write(std::string_view relative, std::string_view content) const {
    std::filesystem::path path = Path(relative);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }
  void MakeDir(std::string_view relative) const {
    std::filesystem::create_directories(Path(relative));
  }
  /// A symbolic link at `relative` whose text is `target`.
  void Link(std::string_view relative, const std::string& target) const {
    std::filesystem::path path = Path(relative);
    std::filesystem::create_directories(path.parent_path());
    std::filesystem::create_symlink(target, path);
  }
  void Fifo(std::string_view relative) const { ::mkfifo(Path(relative).c_str(), 0600); }

 private:
  std::string root_;
};

/// Permission bits do not stop root, so tests of unreadable files skip there.
inline bool RunningAsRoot() { return ::geteuid() == 0; }

}  // namespace tjr::source
