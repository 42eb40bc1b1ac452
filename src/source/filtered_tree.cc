#include "source/filtered_tree.h"

#include <filesystem>
#include <utility>

#include "source/walk.h"

namespace tjr::source {
namespace {

std::string Normal(const std::string& path) {
  if (IsLexicallyNormal(path)) return path;
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal.empty() ? "." : normal;
}

}  // namespace

FilteredTree::FilteredTree(const Tree& tree, std::string hidden_name, std::string base,
                           PathFilter filter)
    : tree_(tree),
      hidden_name_(std::move(hidden_name)),
      base_(Normal(base)),
      unfiltered_(filter.empty()),
      matcher_(filter) {}

bool FilteredTree::Accepts(const std::string& path) const {
  if (unfiltered_) return true;
  std::string normal = Normal(path);
  std::string relative;
  if (base_ == ".") {
    if (normal == ".." || normal.rfind("../", 0) == 0 || normal.front() == '/') return true;
    relative = normal;
  } else if (normal.size() > base_.size() && normal.compare(0, base_.size(), base_) == 0 &&
             (normal[base_.size()] == '/' || base_ == "/")) {
    relative = normal.substr(base_ == "/" ? 1 : base_.size() + 1);
  } else {
    return true;
  }
  return matcher_.Accepts(relative);
}

Result<std::vector<DirEntry>> FilteredTree::List(const std::string& path) const {
  Result<std::vector<DirEntry>> entries = tree_.List(path);
  if (!entries.ok()) return entries;
  std::erase_if(*entries, [&](const DirEntry& entry) {
    if (entry.name == hidden_name_) return true;
    if (entry.type == EntryType::kDirectory || unfiltered_) return false;
    return !Accepts(path == "." ? entry.name : path + "/" + entry.name);
  });
  return entries;
}

std::string RootedTree::Full(const std::string& path) const {
  if (path.empty() || path == ".") return root_;
  return root_ + "/" + path;
}

template <class T>
Result<T> RootedTree::Renamed(Result<T> result, const std::string& path) const {
  if (!result.ok()) {
    Diagnostic error = result.take_error();
    if (error.location.known() && *error.location.file == Full(path)) {
      error.location.file = InternSourceName(path);
    }
    return error;
  }
  return result;
}

Result<EntryType> RootedTree::Stat(const std::string& path) const {
  return Renamed(tree_.Stat(Full(path)), path);
}
Result<std::vector<DirEntry>> RootedTree::List(const std::string& path) const {
  return Renamed(tree_.List(Full(path)), path);
}
Result<std::string> RootedTree::Resolve(const std::string& path) const {
  return Renamed(tree_.Resolve(Full(path)), path);
}
Result<std::string> RootedTree::Read(const std::string& path, std::size_t max_bytes) const {
  return Renamed(tree_.Read(Full(path), max_bytes), path);
}

}  // namespace tjr::source
