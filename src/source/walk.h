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
  /// The Helm chart folder (as named) the file lies in, else "": such a
  /// file is a template when it holds template actions.
  std::string chart = {};
};

/// A file found that is no manifest: a template of a Helm chart's
/// templates/ folder, or a file a kustomization names as a patch or a
/// plugin's configuration.
struct SkippedFile {
  std::string name;
  std::string chart;  ///< the chart folder, as named, for chart templates
  std::string why;    ///< for the others: what it is, for the note
  bool patch = false;  ///< a kustomize patch file (its TrainJobs' types are still checked)
};

/// Whether the repository path `path` lies in one of `scope` (folders or
/// files; "" or "." is everything, an empty scope nothing).
bool InScope(std::string_view path, const std::vector<std::string>& scope);

/// Whether anything under the repository folder `folder` ("a/b") can be in
/// `scope` (empty: everything): the folder is in it or holds part of it.
bool ScopeReaches(std::string_view folder, const std::vector<std::string>& scope);

/// Whether the resolved path `path` lies inside the resolved folder `folder`:
/// it starts with `folder` and a '/'. The one rule for symbolic links: a
/// directory walk reads a link found in a folder only when it resolves inside
/// the folder named, and a ConfinedTree any path only inside its root.
bool InsideFolder(std::string_view path, std::string_view folder);

/// True when std::filesystem's lexically_normal would leave `path` as it is
/// (no empty, "." or ".." component, no trailing '/'): checking first saves a
/// std::filesystem round trip per file of a large folder.
bool IsLexicallyNormal(const std::string& path);

struct ExpandedPaths {
  std::vector<InputFile> files;
  /// Files of the extensions asked for that are not read: everything under
  /// the templates/ folder of a Helm chart (a folder holding Chart.yaml),
  /// and the patches and plugin configurations of kustomizations (see
  /// kustomize.h) found in walked folders or above named files. Sorted by
  /// name.
  std::vector<SkippedFile> skipped;
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
/// A Helm chart found on the way (a folder holding Chart.yaml, the
/// folder of a named file or a walked one, or one of their parents as
/// written) is not read as manifests: its templates/ go to `skipped`, and
/// its other files carry InputFile::chart.
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
