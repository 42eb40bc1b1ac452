#include "source/git_folder_cache.h"

#include <vector>

namespace tjr::source {
namespace {

// The cached paths' bytes past which the cache starts again: a
// 10,000-file folder's parents are a few hundred bytes.
constexpr std::size_t kMaxCachedPathBytes = std::size_t{8} << 20;

}  // namespace

const git_tree* FolderCache::Folder(std::string_view path) {
  if (path.empty()) return root_;
  if (auto cached = folders_.find(std::string(path)); cached != folders_.end()) return cached->second.get();
  // The nearest cached folder above (a listing walks down: the parent).
  const git_tree* tree = root_;
  std::size_t start = 0;
  for (std::size_t slash = path.rfind('/'); slash != std::string_view::npos && slash > 0;
       slash = path.rfind('/', slash - 1)) {
    if (auto cached = folders_.find(std::string(path.substr(0, slash))); cached != folders_.end()) {
      tree = cached->second.get();
      start = slash + 1;
      break;
    }
  }
  // Then down one folder at a time; the trees on the way live until the end.
  std::vector<GitHandle<git_tree, git_tree_free>> on_the_way;
  while (true) {
    const std::size_t slash = path.find('/', start);
    const std::string name(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    const git_tree_entry* entry = git_tree_entry_byname(tree, name.c_str());
    git_tree* next = nullptr;
    if (entry == nullptr || git_tree_entry_type(entry) != GIT_OBJECT_TREE ||
        git_tree_lookup(&next, repo_, git_tree_entry_id(entry)) != 0) {
      return nullptr;
    }
    on_the_way.emplace_back(next);
    tree = next;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  GitHandle<git_tree, git_tree_free> found = std::move(on_the_way.back());
  on_the_way.clear();
  if (path_bytes_ + path.size() > kMaxCachedPathBytes) {
    folders_.clear();
    path_bytes_ = 0;
  }
  path_bytes_ += path.size();
  return folders_.emplace(std::string(path), std::move(found)).first->second.get();
}

const git_tree_entry* FolderCache::Entry(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const git_tree* folder = Folder(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
  if (folder == nullptr) return nullptr;
  const std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
  return git_tree_entry_byname(folder, name.c_str());
}

}  // namespace tjr::source
