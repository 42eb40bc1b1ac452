#include "source/git_folder_cache.h"

#include <algorithm>

namespace tjr::source {
namespace {

// The cached paths' bytes past which the cache starts again: a
// 10,000-file folder's parents are a few hundred bytes.
constexpr std::size_t kMaxCachedPathBytes = std::size_t{8} << 20;

}  // namespace

const git_tree* FolderCache::Folder(std::string_view path) {
  if (path.empty()) return root_;
  // The folders `path` shares with the last one looked up.
  const std::size_t same =
      static_cast<std::size_t>(std::mismatch(path.begin(), path.end(), last_.begin(), last_.end()).first - path.begin());
  std::size_t shared = 0;
  while (shared < chain_.size() && chain_[shared].end <= same &&
         (chain_[shared].end == path.size() || path[chain_[shared].end] == '/')) {
    ++shared;
  }
  if (shared > 0 && chain_[shared - 1].end == path.size()) return chain_[shared - 1].tree.get();
  if (auto cached = folders_.find(std::string(path)); cached != folders_.end()) return cached->second.get();
  // Down from there, one folder at a time.
  chain_.resize(shared);
  last_.assign(path);
  const git_tree* tree = shared == 0 ? root_ : chain_.back().tree.get();
  std::size_t start = shared == 0 ? 0 : chain_.back().end + 1;
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string name(path.substr(start, slash - start));
    const git_tree_entry* entry = git_tree_entry_byname(tree, name.c_str());
    git_tree* next = nullptr;
    if (entry == nullptr || git_tree_entry_type(entry) != GIT_OBJECT_TREE ||
        git_tree_lookup(&next, repo_, git_tree_entry_id(entry)) != 0) {
      return nullptr;
    }
    chain_.push_back({slash, OwnedTree(next)});
    tree = next;
    start = slash + 1;
  }
  Remember(path, tree);
  return tree;
}

void FolderCache::Remember(std::string_view path, const git_tree* tree) {
  git_tree* copy = nullptr;
  if (git_tree_dup(&copy, const_cast<git_tree*>(tree)) != 0) return;
  if (path_bytes_ + path.size() > kMaxCachedPathBytes) {
    folders_.clear();
    path_bytes_ = 0;
  }
  path_bytes_ += path.size();
  folders_.emplace(std::string(path), OwnedTree(copy));
}

const git_tree_entry* FolderCache::Entry(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const git_tree* folder = Folder(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
  if (folder == nullptr) return nullptr;
  const std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
  return git_tree_entry_byname(folder, name.c_str());
}

}  // namespace tjr::source
