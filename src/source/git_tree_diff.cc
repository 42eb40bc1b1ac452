#include "source/git_tree_diff.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "source/git_util.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

constexpr std::uint32_t kTypeMask = 0170000;
constexpr std::uint32_t kTypeTree = 0040000;
constexpr std::uint32_t kTypeCommit = 0160000;

struct Item {
  const git_tree_entry* entry;
  std::string_view name;
  std::uint32_t mode;
  bool folder() const { return (mode & kTypeMask) == kTypeTree; }
  bool submodule() const { return (mode & kTypeMask) == kTypeCommit; }
};

// Git's tree order: names by bytes, a folder's as if it ended with '/'.
int Order(const Item& a, const Item& b) {
  const std::size_t n = std::min(a.name.size(), b.name.size());
  if (const int order = a.name.compare(0, n, b.name.substr(0, n)); order != 0) return order;
  const auto next = [n](const Item& item) -> int {
    return n < item.name.size() ? static_cast<unsigned char>(item.name[n]) : item.folder() ? '/' : 0;
  };
  return next(a) - next(b);
}

std::vector<Item> ItemsOf(const git_tree* tree) {
  std::vector<Item> items;
  if (tree == nullptr) return items;
  const std::size_t count = git_tree_entrycount(tree);
  items.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree, i);
    items.push_back({entry, git_tree_entry_name(entry), static_cast<std::uint32_t>(git_tree_entry_filemode_raw(entry))});
  }
  auto before = [](const Item& a, const Item& b) { return Order(a, b) < 0; };
  if (!std::is_sorted(items.begin(), items.end(), before)) std::stable_sort(items.begin(), items.end(), before);
  return items;
}

class Comparer {
 public:
  Comparer(git_repository* repo, const std::vector<std::string>& scope, std::vector<std::string>* out)
      : repo_(repo), scope_(scope), out_(out) {}

  // `base` and `head` (either may be null: a folder on one side only) are
  // the folder `*prefix` ("" or "a/b/").
  Status Folder(const git_tree* base, const git_tree* head, std::string* prefix) {
    const std::vector<Item> old_items = ItemsOf(base);
    const std::vector<Item> new_items = ItemsOf(head);
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < old_items.size() || j < new_items.size()) {
      const int order = i == old_items.size()   ? 1
                        : j == new_items.size() ? -1
                                                : Order(old_items[i], new_items[j]);
      Status status = order < 0   ? OneSide(old_items[i++], prefix, /*old_side=*/true)
                      : order > 0 ? OneSide(new_items[j++], prefix, /*old_side=*/false)
                                  : BothSides(old_items[i++], new_items[j++], prefix);
      if (!status.ok()) return status;
    }
    return Ok();
  }

 private:
  // An entry only one side has: itself, or every file under it.
  Status OneSide(const Item& item, std::string* prefix, bool old_side) {
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

  Status BothSides(const Item& old_item, const Item& new_item, std::string* prefix) {
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

  Result<GitHandle<git_tree, git_tree_free>> Lookup(const Item& item, const std::string& path) {
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
