#pragma once

#include <string>
#include <string_view>

// Test-only: a throw-away folder, made empty on construction and removed
// with everything in it on destruction, with the odd entries (links, FIFOs)
// readers must survive.
namespace tjr::testkit {

class TempDir {
 public:
  /// A new folder under the system's temporary folder, named by `tag`, the
  /// process and a counter, so tests of one binary and parallel binaries
  /// never share one.
  explicit TempDir(std::string_view tag = "t");
  /// Removes the folder, after giving back the permissions a test took.
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// The folder, without a trailing '/'.
  const std::string& root() const { return root_; }
  const std::string& str() const { return root_; }
  /// The path of `relative` inside the folder.
  std::string Path(std::string_view relative) const { return root_ + "/" + std::string(relative); }
  std::string operator/(std::string_view relative) const { return Path(relative); }

  /// Writes `content` byte for byte to `relative`, making its folders.
  void Write(std::string_view relative, std::string_view content) const;
  /// Makes the folder `relative` and its parents.
  void MakeDir(std::string_view relative) const;
  /// A symbolic link at `relative` whose text is `target`.
  void Link(std::string_view relative, const std::string& target) const;
  /// A FIFO at `relative` (opening it for reading blocks until a writer comes).
  void Fifo(std::string_view relative) const;
  /// Copies the folder `from` (its contents, recursively) into the folder.
  void CopyFrom(const std::string& from) const;
  /// The bytes of `relative` ("" when it cannot be read).
  std::string Read(std::string_view relative) const;
  bool Exists(std::string_view relative) const;

 private:
  std::string root_;
};

/// A path of the source tree ("fixtures/trainer-repo"): meson test sets
/// TJRENDER_SOURCE_ROOT; run by hand from build/, the parent folder.
std::string SourcePath(std::string_view relative);

/// The sample repository of the source tree, fixtures/trainer-repo.
inline std::string SampleRepo() { return SourcePath("fixtures/trainer-repo"); }

/// Runs the rest of a scope in `dir`, then returns to the previous working
/// directory.
class InDirectory {
 public:
  explicit InDirectory(const std::string& dir);
  ~InDirectory();
  InDirectory(const InDirectory&) = delete;
  InDirectory& operator=(const InDirectory&) = delete;

 private:
  std::string previous_;
};

/// Permission bits do not stop root, so tests of unreadable files skip there.
bool RunningAsRoot();

}  // namespace tjr::testkit
