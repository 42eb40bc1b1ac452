#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "source/tree.h"

namespace tjr::source {

/// One input file found by ExpandPaths.
struct InputFile {
  /// The name used in messages and locations: the path as given, or the
  /// directory as given joined with the path below it; "<stdin>" for "-".
  std::string name;
  /// What to pass to Tree::Read: `name`, or the resolved target of a link.
  std::string read_path;
  bool is_stdin = false;
  /// DirEntry::object_id of a file found by listing a Git revision, else "".
  std::string object_id = {};
};

/// Whether the repository path `path` lies in one of `scope` (folders or
/// files; "" or "." is everything, an empty scope nothing).
bool InScope(std::string_view path, const std::vector<std::string>& scope);

/// Whether anything under the repository folder `folder` ("a/b") can be in
/// `scope` (empty: everything): the folder is in it or holds part of it.
bool ScopeReaches(std::string_view folder, const std::vector<std::string>& scope);

/// True when std::filesystem's lexically_normal would leave `path` as it is
/// (no empty, "." or ".." component, no trailing '/'): checking first saves a
/// std::filesystem round trip per file of a large folder.
bool IsLexicallyNormal(const std::string& path);

struct ExpandedPaths {
  std::vector<InputFile> files;
  /// Errors (a missing path, an unlistable directory, a link leading out of
  /// its directory) and notes (what was skipped and why).
  Diagnostics diagnostics;
};

/// Turns the paths of a command line into the files to read, kubectl's way:
/// "-" is stdin; a path that is not a directory is read whatever its name;
/// a directory is searched recursively for files whose extension is one of
/// `extensions` (compared exactly, as kubectl's filepath.Ext). Each
/// directory's files come sorted by their path bytes; the paths themselves
/// keep command-line order, and a file reached twice is read once.
///
/// Inside a directory, symbolic links to directories are never followed
/// (so a tree cannot loop), links to files are read only when they resolve
/// inside that directory, and anything that is not a regular file (a FIFO
/// would block the reader) is skipped. A path named on the command line is
/// followed whatever it is: the user chose it.
ExpandedPaths ExpandPaths(const Tree& tree, const std::vector<std::string>& paths,
                          const std::vector<std::string>& extensions);

/// The extension of the last component of `path` ("a/b.tar.yaml" ->
/// ".yaml", "a.d/b" -> ""), as Go's filepath.Ext.
std::string Extension(const std::string& path);

}  // namespace tjr::source
