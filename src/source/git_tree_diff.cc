#include "source/git_tree_diff.h"

#include "source/git_util.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

class Comparer {
 public:
  Comparer(git_repository* repo, const std::vector<std::string>& scope, std::vector<std::string>* out)
      : repo_(repo), scope_(scope), out_(out) {}

  // `base` and `head` (either may be null: a folder on one side only) are
  // the folder `*prefix` ("" or "a/b/").
  Status Folder(const git_tree* base, const git_tree* head, std::string* prefix) {
    const std::vector<TreeItem> old_items = TreeItemsInOrder(base);
    const std::vector<TreeItem> new_items = TreeItemsInOrder(head);
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < old_items.size() || j < new_items.size()) {
      const int order = i == old_items.size()   ? 1
                        : j == new_items.size() ? -1
                                                : TreeOrder(old_items[i], new_items[j]);
      Status status = order < 0   ? OneSide(old_items[i++], prefix, /*old_side=*/true)
                      : order > 0 ? OneSide(new_items[j++], prefix, /*old_side=*/false)
                                  : BothSides(old_items[i++], new_items[j++], prefix);
      if (!status.ok()) return status;
    }
    return Ok();
  }

 private:
  // An entry only one side has: itself, or every file under it.
  Status OneSide(const TreeItem& item, std::string* prefix, bool old_side) {
    if (item.submodule()) return Ok();
    const std::size_t size = prefix->size();
    prefix->append(item.name);
    Status status = Ok();
    if (!item.folder()) {
      Report(*prefix);
    } else if (ScopeReaches(*prefix, scope_)) {
      Result<GitHandle<git_tree, git_tree_free>> tree = Lookup(item, *prefix);
      if (!tree.ok()) {
        status = tree.take_error();
      } else {
        prefix->push_back('/');
        status = old_side ? Folder(tree->get(), nullptr, prefix) : Folder(nullptr, tree->get(), prefix);
      }
    }
    prefix->resize(size);
    return status;
  }

  Status BothSides(const TreeItem& old_item, const TreeItem& new_item, std::string* prefix) {
    const bool same = old_item.mode == new_item.mode &&
                      git_oid_equal(git_tree_entry_id(old_item.entry), git_tree_entry_id(new_item.entry));
    if (same || (old_item.submodule() && new_item.submodule())) return Ok();
    const std::size_t size = prefix->size();
    prefix->append(old_item.name);
    Status status = Ok();
    if (!old_item.folder()) {
      // Files of either type (the order pairs a folder only with a folder);
      // a submodule on one side leaves the other side's file.
      Report(*prefix);
    } else if (ScopeReaches(*prefix, scope_)) {
      Result<GitHandle<git_tree, git_tree_free>> old_tree = Lookup(old_item, *prefix);
      Result<GitHandle<git_tree, git_tree_free>> new_tree = Lookup(new_item, *prefix);
      if (!old_tree.ok()) {
        status = old_tree.take_error();
      } else if (!new_tree.ok()) {
        status = new_tree.take_error();
      } else {
        prefix->push_back('/');
        status = Folder(old_tree->get(), new_tree->get(), prefix);
      }
    }
    prefix->resize(size);
    return status;
  }

  Result<GitHandle<git_tree, git_tree_free>> Lookup(const TreeItem& item, const std::string& path) {
    git_tree* tree = nullptr;
    if (git_tree_lookup(&tree, repo_, git_tree_entry_id(item.entry)) != 0) {
      return MakeError(Location{}, "", "cannot read tree " + path + ": " + LastGitError());
    }
    return GitHandle<git_tree, git_tree_free>(tree);
  }

  void Report(const std::string& path) {
    if (scope_.empty() || InScope(path, scope_)) out_->push_back(path);
  }

  git_repository* repo_;
  const std::vector<std::string>& scope_;
  std::vector<std::string>* out_;
};

}  // namespace

Status TreeTreeChanges(git_repository* repo, const git_tree* base, const git_tree* head,
                       const std::vector<std::string>& scope, std::vector<std::string>* out) {
  if (git_oid_equal(git_tree_id(base), git_tree_id(head))) return Ok();
  std::string prefix;
  return Comparer(repo, scope, out).Folder(base, head, &prefix);
}

}  // namespace tjr::source
