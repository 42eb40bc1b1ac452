#include "source/git_tree_diff.h"

#include "source/git_tree_depth.h"
#include "source/git_util.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

using OwnedTree = GitHandle<git_tree, git_tree_free>;

// One folder being compared: the trees of both sides (either may be
// null: a folder on one side only) and how far each side's entries are.
struct Frame {
  OwnedTree base_owner, head_owner;
  std::vector<TreeItem> old_items, new_items;
  std::size_t i = 0, j = 0;
  std::size_t prefix_size = 0;  // "" or "a/b/": where the folder's names start
};

// A walk with an explicit stack: a hostile revision may nest folders
// deeper than the call stack; the prefix is one string, so memory is
// linear in the depth.
class Comparer {
 public:
  Comparer(git_repository* repo, const std::vector<std::string>& scope, std::vector<std::string>* out)
      : repo_(repo), scope_(scope), out_(out) {}

  Status Run(const git_tree* base, const git_tree* head) {
    Status root = Push(base, head, {}, {});
    if (!root.ok()) return root;
    while (!stack_.empty()) {
      Frame& frame = stack_.back();
      prefix_.resize(frame.prefix_size);
      if (frame.i == frame.old_items.size() && frame.j == frame.new_items.size()) {
        stack_.pop_back();
        continue;
      }
      const int order = frame.i == frame.old_items.size()   ? 1
                        : frame.j == frame.new_items.size() ? -1
                                                            : TreeOrder(frame.old_items[frame.i], frame.new_items[frame.j]);
      // Copies: Push may move the frame.
      Status status = order < 0   ? OneSide(TreeItem(frame.old_items[frame.i++]), /*old_side=*/true)
                      : order > 0 ? OneSide(TreeItem(frame.new_items[frame.j++]), /*old_side=*/false)
                                  : BothSides(TreeItem(frame.old_items[frame.i++]), TreeItem(frame.new_items[frame.j++]));
      if (!status.ok()) return status;
    }
    return Ok();
  }

 private:
  // The folder `prefix_` + '/' to compare next; the owners keep its trees.
  Status Push(const git_tree* base, const git_tree* head, OwnedTree base_owner, OwnedTree head_owner) {
    if (stack_.size() > kMaxTreeDepth) return TreeTooDeep(prefix_, "a revision compared");
    if (!stack_.empty()) prefix_.push_back('/');
    Frame& frame = stack_.emplace_back();
    frame.old_items = TreeItemsInOrder(base);
    frame.new_items = TreeItemsInOrder(head);
    frame.base_owner = std::move(base_owner);
    frame.head_owner = std::move(head_owner);
    frame.prefix_size = prefix_.size();
    return Ok();
  }

  // An entry only one side has: itself, or every file under it.
  Status OneSide(const TreeItem& item, bool old_side) {
    if (item.submodule()) return Ok();
    prefix_.append(item.name);
    if (!item.folder()) {
      Report(prefix_);
      return Ok();
    }
    if (!ScopeReaches(prefix_, scope_)) return Ok();
    Result<OwnedTree> tree = Lookup(item);
    if (!tree.ok()) return tree.take_error();
    const git_tree* raw = tree->get();
    return old_side ? Push(raw, nullptr, std::move(*tree), {}) : Push(nullptr, raw, {}, std::move(*tree));
  }

  Status BothSides(const TreeItem& old_item, const TreeItem& new_item) {
    const bool same = old_item.mode == new_item.mode &&
                      git_oid_equal(git_tree_entry_id(old_item.entry), git_tree_entry_id(new_item.entry));
    if (same || (old_item.submodule() && new_item.submodule())) return Ok();
    prefix_.append(old_item.name);
    if (!old_item.folder()) {
      // Files of either type (the order pairs a folder only with a folder);
      // a submodule on one side leaves the other side's file.
      Report(prefix_);
      return Ok();
    }
    if (!ScopeReaches(prefix_, scope_)) return Ok();
    Result<OwnedTree> old_tree = Lookup(old_item);
    if (!old_tree.ok()) return old_tree.take_error();
    Result<OwnedTree> new_tree = Lookup(new_item);
    if (!new_tree.ok()) return new_tree.take_error();
    const git_tree* base = old_tree->get();
    const git_tree* head = new_tree->get();
    return Push(base, head, std::move(*old_tree), std::move(*new_tree));
  }

  Result<OwnedTree> Lookup(const TreeItem& item) {
    git_tree* tree = nullptr;
    if (git_tree_lookup(&tree, repo_, git_tree_entry_id(item.entry)) != 0) {
      return MakeError(Location{}, "", "cannot read tree " + prefix_ + ": " + LastGitError());
    }
    return OwnedTree(tree);
  }

  void Report(const std::string& path) {
    if (scope_.empty() || InScope(path, scope_)) out_->push_back(path);
  }

  git_repository* repo_;
  const std::vector<std::string>& scope_;
  std::vector<std::string>* out_;
  std::vector<Frame> stack_;
  std::string prefix_;
};

}  // namespace

Status TreeTreeChanges(git_repository* repo, const git_tree* base, const git_tree* head,
                       const std::vector<std::string>& scope, std::vector<std::string>* out) {
  if (git_oid_equal(git_tree_id(base), git_tree_id(head))) return Ok();
  return Comparer(repo, scope, out).Run(base, head);
}

}  // namespace tjr::source
