#include "source/git_index_diff.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

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
    std::string prefix;
    return Folder(base, &prefix, 0, entries_.size());
  }

 private:
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

  // `tree` is the folder `*prefix` ("" or "a/b/"); [lo, hi) the index
  // entries under it.
  Status Folder(const git_tree* tree, std::string* prefix, std::size_t lo, std::size_t hi) {
    const std::vector<TreeItem> items = TreeItemsInOrder(tree);

    const std::size_t prefix_size = prefix->size();
    std::size_t i = lo;
    for (const TreeItem& item : items) {
      prefix->resize(prefix_size);
      prefix->append(item.name);
      if (item.folder()) prefix->push_back('/');
      const std::string_view path = *prefix;
      Status added = Added(&i, hi, path, false);
      if (!added.ok()) return added;
      if (item.folder()) {
        std::size_t j = i;
        while (j < hi && entries_[j].path.substr(0, path.size()) == path) ++j;
        const std::string_view folder = path.substr(0, path.size() - 1);
        const RawOid* cached = use_cache_tree_ ? index_.CachedTreeOf(folder) : nullptr;
        if (ScopeReaches(folder, scope_) && (cached == nullptr || !SameId(*cached, git_tree_entry_id(item.entry)))) {
          git_tree* sub = nullptr;
          if (git_tree_lookup(&sub, repo_, git_tree_entry_id(item.entry)) != 0) {
            return MakeError(Location{}, "", "cannot read tree " + std::string(folder) + ": " + LastGitError());
          }
          GitHandle<git_tree, git_tree_free> owned(sub);
          Status inner = Folder(sub, prefix, i, j);
          if (!inner.ok()) return inner;
        }
        i = j;
        continue;
      }
      if (i < hi && entries_[i].path == path) {
        Result<std::size_t> end = GroupEnd(i, hi);
        if (!end.ok()) return end.take_error();
        const IndexEntry& now = entries_[i];
        const std::uint32_t mode = item.mode;
        const git_oid* id = git_tree_entry_id(item.entry);
        // Conflicted, of another type or mode, or other bytes.
        if (now.stage > 0 || mode != now.mode || !SameId(now.id, id) || git_oid_is_zero(id)) {
          Report(path);
        }
        i = *end;
      } else {
        Report(path);  // deleted
      }
    }
    prefix->resize(prefix_size);
    return Added(&i, hi, {}, true);
  }

  git_repository* repo_;
  const IndexFile& index_;
  const std::vector<IndexEntry>& entries_;
  const std::vector<std::string>& scope_;
  std::vector<std::string>* out_;
  bool use_cache_tree_;
};

}  // namespace

Status TreeIndexChanges(git_repository* repo, const git_tree* base, const IndexFile& index,
                        const std::vector<std::string>& scope, std::vector<std::string>* out) {
  Comparer comparer(repo, index, scope, out);
  return comparer.Root(base);
}

}  // namespace tjr::source
