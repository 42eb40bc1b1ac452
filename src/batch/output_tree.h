#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

// `render --out DIR`: one file per TrainJob at DIR/<namespace>/<name>.<ext>,
// installed so that a run killed at any point while rendering leaves the
// previous tree as it was, rewriting only files whose bytes change, and
// removing only files an earlier run wrote (listed in DIR/.tjrender-index).
namespace tjr::batch {

/// The index file of an output folder.
inline constexpr char kOutputIndexFile[] = ".tjrender-index";

/// Whether `name` is a DNS-1123 label (lowercase alphanumerics and '-',
/// alphanumeric at both ends, 1-63 characters), which every RFC 1035
/// label is too. Only such names become path components.
bool IsDns1123Label(std::string_view name);

/// Whether `name` is a safe Flyte task name for a file: 1-253 characters
/// of letters, digits, '.', '_' and '-', starting with a letter or digit
/// (task ids are Python paths such as "workflows.train.fit_model").
bool IsTaskFileName(std::string_view name);

/// What an output file holds, which decides the names it may take.
enum class OutputKind {
  kTrainJob,   ///< names are DNS-1123 labels
  kFlyteTask,  ///< the namespace is a DNS-1123 label, the name IsTaskFileName
};

/// The output file of a TrainJob (or a Flyte task's Pod) relative to DIR
/// ("<namespace>/<name>.<ext>"), or an error when the namespace or name is
/// not of the allowed form: checked before any path is built, so no name can
/// lead out of DIR.
Result<std::string> OutputFileFor(const std::string& namespace_, const std::string& name,
                                  const std::string& extension,
                                  OutputKind kind = OutputKind::kTrainJob);

/// The files (relative to `dir`) that DIR's index says an earlier run
/// wrote, which a full `render --out DIR` run removes when nothing renders
/// to them any more; empty without an index.
std::set<std::string> ReadOutputIndex(const std::string& dir);

struct OutputStats {
  std::size_t written = 0;    ///< new or changed files
  std::size_t unchanged = 0;  ///< files whose bytes were already right
  std::size_t removed = 0;    ///< stale files of earlier runs
};

class OutputTree {
 public:
  /// Opens (creating) `dir` and reads its index; removes the staging
  /// folders of runs that died.
  static Result<std::unique_ptr<OutputTree>> Open(const std::string& dir);
  ~OutputTree();

  /// Records `relative` (from OutputFileFor) with `bytes`: compared with the
  /// file in DIR and, when different, staged beside it until Commit.
  Status Put(const std::string& relative, std::string_view bytes);
  /// Asks for `relative` to be removed at Commit (when an earlier run wrote
  /// it): the file of a TrainJob that is gone or no longer renders.
  void Remove(const std::string& relative);

  /// Moves the staged files into place and removes stale files: with
  /// `prune`, every indexed file not Put in this run (a full run); without,
  /// only those passed to Remove (--since). Then writes the new index.
  Result<OutputStats> Commit(bool prune);

 private:
  explicit OutputTree(std::string dir);
  Status Install(const std::string& relative);

  std::string dir_;
  std::string staging_;
  std::string index_text_;                 // the index file as read
  std::vector<std::string_view> old_index_;  // its files, sorted, into index_text_
  bool index_current_ = false;             // the index file holds exactly old_index_
  std::set<std::string> put_;
  std::vector<std::string> staged_;
  struct Namespace {
    bool is_new = false;  // DIR lacked its folder when first seen
    bool staging = false;  // its staging folder exists
  };
  /// Namespaces put so far.
  std::map<std::string, Namespace> namespaces_;
  std::set<std::string> remove_;
  OutputStats stats_;
};

}  // namespace tjr::batch
