#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/diagnostic.h"
#include "base/object_name.h"
#include "batch/folder_fd.h"
#include "source/disk_tree.h"

// `render --out DIR`: one file per TrainJob at DIR/<namespace>/<name>.<ext>
// (a Flyte task's Pod at DIR/<namespace>/<task>.pod.<ext>), the folder
// replaced as a whole so that a reader sees the previous tree or the new
// one, never a mix, however the run ends; files whose bytes do not change
// keep their inode; only files an earlier run wrote (listed in
// DIR/.tjrender-index) are removed.
namespace tjr::batch {

/// The index file of an output folder.
inline constexpr char kOutputIndexFile[] = ".tjrender-index";

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

/// The entries `render --out DIR` keeps beside DIR, in its parent folder
/// (the staging folders `.<name>.tjrender-<pid>` and the lock
/// `.<name>.tjrender.lock`), as an exclusion for the walk of the inputs
/// (`render REPO --out REPO/rendered` must not read a killed run's staging
/// folder); nothing when DIR's parent does not exist yet.
std::vector<source::OutputFile> OutputFolderEntries(const std::string& dir);

/// The environment variable that sets how long OutputTree::Open waits for
/// another run's lock on DIR, in seconds.
inline constexpr char kLockTimeoutVariable[] = "TJRENDER_LOCK_TIMEOUT";

struct OutputOptions {
  /// How long Open waits for another process writing DIR to finish.
  double lock_timeout_seconds = 10;
};

struct OutputStats {
  std::size_t written = 0;    ///< new or changed files
  std::size_t unchanged = 0;  ///< files whose bytes were already right
  std::size_t removed = 0;    ///< stale files of earlier runs
};

/// `render --out DIR`, replaced as a whole. The new tree is built beside
/// DIR, in DIR's parent folder (`.<DIR's name>.tjrender-<pid>`): files whose
/// bytes change are written there, every other entry of DIR (unchanged
/// outputs, the user's own files, links as links) is hard-linked into it, so
/// unchanged files keep their inode and timestamps; files an earlier run
/// wrote and this one does not are left out. One renameat2(RENAME_EXCHANGE)
/// then swaps the two folders and the old tree is removed. At every instant
/// DIR names the previous tree or the new one, whole, whenever the process
/// is killed; staging folders of dead runs are removed by the next run. DIR
/// stays a real folder. All work is relative to open folders with links
/// never followed: nothing outside DIR is written or deleted. Writers of one
/// DIR take turns: a lock file beside DIR (`.<name>.tjrender.lock`, flock(2),
/// holding the pid and host) is held from Open to the end. What the new tree
/// keeps keeps its owner and mode (DIR, its folders, rewritten files); new
/// entries of a run as root get the owner of the folder holding them. Any
/// failure to write (ENOSPC, EIO, a name too long) fails Commit or makes
/// the caller drop the tree: DIR stays the old tree.
class OutputTree {
 public:
  /// Opens DIR (its parent folder is created when missing; DIR itself, when
  /// a link to a folder, is followed once, as the user named it), reads its
  /// index, removes the staging folders of runs that died, and creates this
  /// run's staging folder.
  /// Waits up to options.lock_timeout_seconds for another run's lock on
  /// DIR, then fails naming the process that holds it.
  static Result<std::unique_ptr<OutputTree>> Open(const std::string& dir, const OutputOptions& options = {});
  ~OutputTree();

  /// Records `relative` (from OutputFileFor) with `bytes`: compared with the
  /// file in DIR and, when different, written to the staging tree. An entry
  /// of DIR in the namespace's place that is not a folder (a symbolic link,
  /// say) is an error: nothing is written through it.
  Status Put(const std::string& relative, std::string_view bytes);
  /// Asks for `relative` to be removed at Commit (when an earlier run wrote
  /// it): the file of a TrainJob that is gone or no longer renders.
  void Remove(const std::string& relative);

  /// Builds the rest of the new tree and swaps it in: with `prune`, every
  /// indexed file not Put in this run is left out (a full run); without,
  /// only those passed to Remove (--since). Nothing changes on disk when no
  /// byte would.
  Result<OutputStats> Commit(bool prune);

  /// What the run should say but does not fail for: staging folders of dead
  /// runs, or the previous tree, that could not be removed entirely.
  Diagnostics TakeWarnings() { return std::exchange(warnings_, {}); }

 private:
  OutputTree() = default;
  Status CloneInto(int from, int to, const std::string& prefix, int depth,
                   const std::vector<std::string>& stale, bool* emptied);
  int StagingNamespace(const std::string& namespace_, Status* error);
  std::optional<Ownership> OwnerOfNew(int old_folder) const;
  void RemoveStagingLeftovers(const std::string& prefix);

  std::string dir_;        // as the user named it, for messages
  std::string name_;       // DIR's name in its parent
  std::string staging_;    // the staging folder's name in DIR's parent
  int parent_fd_ = -1;
  int old_fd_ = -1;        // DIR as it is (-1: DIR does not exist yet)
  int staging_fd_ = -1;
  Fd lock_;                // the flock on lock_name_ in DIR's parent
  std::string lock_name_;
  bool committed_ = false;
  std::optional<Ownership> dir_ownership_;  // the new DIR's, applied before the swap
  std::map<std::string, Ownership> namespace_ownership_;  // the staging namespaces', likewise
  Diagnostics warnings_;
  std::string index_text_;                   // the index file as read
  std::vector<std::string_view> old_index_;  // its files, sorted, into index_text_
  std::set<std::string> put_;
  std::set<std::string> written_;            // written to the staging tree
  std::map<std::string, int> old_namespaces_;      // DIR's folders by namespace (-1: none)
  std::map<std::string, int> staging_namespaces_;  // the staging tree's
  std::set<std::string> remove_;
  OutputStats stats_;
};

}  // namespace tjr::batch
