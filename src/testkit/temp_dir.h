#pragma once

#include <filesystem>
#include <string>
#include <string_view>

// Test-only: a throw-away folder, made empty on construction and removed
// with everything in it on destruction.
namespace tjr::testkit {

class TempDir {
 public:
  /// A new folder under the system's temporary folder, named by `tag`, the
  /// process and a counter, so tests of one binary and parallel binaries
  /// never share one.
  explicit TempDir(std::string_view tag = "t");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::string str() const { return root_.string(); }
  /// The path of `relative` inside the folder, as a string (for argv).
  std::string operator/(std::string_view relative) const { return (root_ / relative).string(); }
  std::filesystem::path Path(std::string_view relative) const { return root_ / relative; }

  /// Writes `content` byte for byte to `relative`, making its folders.
  void Write(std::string_view relative, std::string_view content) const;
  /// Makes the folder `relative` and its parents.
  void MakeDir(std::string_view relative) const;
  /// The bytes of `relative` ("" when it cannot be read).
  std::string Read(std::string_view relative) const;
  bool Exists(std::string_view relative) const { return std::filesystem::exists(root_ / relative); }

 private:
  std::filesystem::path root_;
};

/// A path of the source tree ("fixtures/trainer-repo"): meson test sets
/// TJRENDER_SOURCE_ROOT; run by hand from build/, the parent folder.
std::string SourcePath(std::string_view relative);

}  // namespace tjr::testkit
