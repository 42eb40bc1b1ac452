#include "source/git_index_diff.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "source/git_tree_depth.h"
#include "source/git_util.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

bool SameId(const RawOid& raw, const git_oid* id) { return std::memcmp(raw.data(), id->id, raw.size()) == 0; }

// Walks a tree and the index's entries under the same folder together, in
// the order libgit2's iterators yield them: paths by bytes, a folder's
// files as if its name ended with '/'.
class Comparer {
 public:
  Comparer(git_repository* repo, const IndexFile& index, const std::vector<std::string>& scope,
           std::vector<std::string>* out)
      : repo_(repo),
        index_(index),
        entries_(index.entries),
        scope_(scope),
        out_(out),
        // Git leaves such folders invalid; other writers are not trusted to.
        use_cache_tree_(!index.has_conflicts && !index.has_intent_to_add) {}

  Status Root(const git_tree* base) {
    if (use_cache_tree_ && index_.has_root_tree && SameId(index_.root_tree, git_tree_id(base))) return Ok();
    Push(base, {}, 0, entries_.size());
    while (!stack_.empty()) {
      Status step = Step();
      if (!step.ok()) return step;
    }
    return Ok();
  }

 private:
  // One folder of the tree being compared: its entries, how far they are
  // gone through, and the index entries [i, hi) still to meet under it.
  struct Frame {
    GitHandle<git_tree, git_tree_free> owner;
    std::vector<TreeItem> items;
    std::size_t next = 0;
    std::size_t prefix_size = 0;  // "" or "a/b/"
    std::size_t i = 0, hi = 0;
  };

  void Report(std::string_view path) {
    if (scope_.empty() || InScope(path, scope_)) out_->emplace_back(path);
  }

  // The end of the entries sharing entries_[i]'s path (its stages).
  Result<std::size_t> GroupEnd(std::size_t i, std::size_t hi) const {
    std::size_t j = i + 1;
    while (j < hi && entries_[j].path == entries_[i].path) ++j;
    // Merged and conflicted at once: libgit2 would see it twice.
    if (j - i > 1 && entries_[i].stage == 0) return MakeError(Location{}, "", "a path is both merged and conflicted");
    return j;
  }

  // Index entries [i, until) the tree lacks; libgit2 skips an added entry
  // marked assume-unchanged.
  Status Added(std::size_t* i, std::size_t hi, std::string_view until, bool all) {
    while (*i < hi && (all || entries_[*i].path < until)) {
      Result<std::size_t> end = GroupEnd(*i, hi);
      if (!end.ok()) return end.take_error();
      if (!entries_[*i].assume_valid) Report(entries_[*i].path);
      *i = *end;
    }
    return Ok();
  }

  // `tree` is the folder `prefix_` ("" or "a/b/"); [lo, hi) the index
  // entries under it.
  void Push(const git_tree* tree, GitHandle<git_tree, git_tree_free> owner, std::size_t lo, std::size_t hi) {
    Frame& frame = stack_.emplace_back();
    frame.items = TreeItemsInOrder(tree);
    frame.owner = std::move(owner);
    frame.prefix_size = prefix_.size();
    frame.i = lo;
    frame.hi = hi;
  }

  // The next entry of the innermost folder (an explicit stack: a hostile
  // revision may nest deeper than the call stack).
  Status Step() {
    Frame& frame = stack_.back();
    prefix_.resize(frame.prefix_size);
    if (frame.next == frame.items.size()) {
      Status added = Added(&frame.i, frame.hi, {}, true);
      stack_.pop_back();
      return added;
    }
    const TreeItem item = frame.items[frame.next++];
    prefix_.append(item.name);
    if (item.folder()) prefix_.push_back('/');
    const std::string_view path = prefix_;
    Status added = Added(&frame.i, frame.hi, path, false);
    if (!added.ok()) return added;
    if (item.folder()) {
      std::size_t j = frame.i;
      while (j < frame.hi && entries_[j].path.substr(0, path.size()) == path) ++j;
      const std::size_t lo = frame.i;
      frame.i = j;
      const std::string_view folder = path.substr(0, path.size() - 1);
      const RawOid* cached = use_cache_tree_ ? index_.CachedTreeOf(folder) : nullptr;
      if (!ScopeReaches(folder, scope_) || (cached != nullptr && SameId(*cached, git_tree_entry_id(item.entry)))) {
        return Ok();
      }
      if (stack_.size() > kMaxTreeDepth) return TreeTooDeep(folder, "the revision compared");
      git_tree* sub = nullptr;
      if (git_tree_lookup(&sub, repo_, git_tree_entry_id(item.entry)) != 0) {
        return MakeError(Location{}, "", "cannot read tree " + std::string(folder) + ": " + LastGitError());
      }
      Push(sub, GitHandle<git_tree, git_tree_free>(sub), lo, j);
      return Ok();
    }
    if (frame.i < frame.hi && entries_[frame.i].path == path) {
      Result<std::size_t> end = GroupEnd(frame.i, frame.hi);
      if (!end.ok()) return end.take_error();
      const IndexEntry& now = entries_[frame.i];
      const std::uint32_t mode = item.mode;
      const git_oid* id = git_tree_entry_id(item.entry);
      // Conflicted, of another type or mode, or other bytes.
      if (now.stage > 0 || mode != now.mode || !SameId(now.id, id) || git_oid_is_zero(id)) Report(path);
      frame.i = *end;
    } else {
      Report(path);  // deleted
    }
    return Ok();
  }

  git_repository* repo_;
  const IndexFile& index_;
  const std::vector<IndexEntry>& entries_;
  const std::vector<std::string>& scope_;
  std::vector<std::string>* out_;
  bool use_cache_tree_;
  std::vector<Frame> stack_;
  std::string prefix_;
};

}  // namespace

Status TreeIndexChanges(git_repository* repo, const git_tree* base, const IndexFile& index,
                        const std::vector<std::string>& scope, std::vector<std::string>* out) {
  Comparer comparer(repo, index, scope, out);
  return comparer.Root(base);
}

}  // namespace tjr::source
