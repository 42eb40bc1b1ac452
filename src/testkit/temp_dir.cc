#include "testkit/temp_dir.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace tjr::testkit {
namespace fs = std::filesystem;

TempDir::TempDir(std::string_view tag) {
  static std::atomic<int> counter{0};
  root_ = (fs::temp_directory_path() /
           ("tjrender-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
              .string();
  std::error_code ignored;
  fs::remove_all(root_, ignored);
  fs::create_directories(root_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::permissions(root_, fs::perms::owner_all, fs::perm_options::add, ignored);
  fs::remove_all(root_, ignored);
}

void TempDir::Write(std::string_view relative, std::string_view content) const {
  const fs::path path = Path(relative);
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

void TempDir::MakeDir(std::string_view relative) const { fs::create_directories(Path(relative)); }

void TempDir::Link(std::string_view relative, const std::string& target) const {
  const fs::path path = Path(relative);
  fs::create_directories(path.parent_path());
  fs::create_symlink(target, path);
}

void TempDir::Fifo(std::string_view relative) const { ::mkfifo(Path(relative).c_str(), 0600); }

void TempDir::CopyFrom(const std::string& from) const {
  fs::copy(from, root_, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

std::string TempDir::Read(std::string_view relative) const {
  std::ifstream in(Path(relative), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool TempDir::Exists(std::string_view relative) const { return fs::exists(Path(relative)); }

std::string SourcePath(std::string_view relative) {
  const char* root = std::getenv("TJRENDER_SOURCE_ROOT");
  return std::string(root != nullptr ? root : "..") + "/" + std::string(relative);
}

InDirectory::InDirectory(const std::string& dir) : previous_(fs::current_path().string()) { fs::current_path(dir); }

InDirectory::~InDirectory() {
  std::error_code ignored;
  fs::current_path(previous_, ignored);
}

bool RunningAsRoot() { return ::geteuid() == 0; }

}  // namespace tjr::testkit
