#include "source/memory_tree.h"

#include <filesystem>
#include <set>

namespace tjr::source {
namespace {

// "." for the top; no leading "./", no trailing '/', no "a/../".
std::string Normal(const std::string& path) {
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal.empty() ? "." : normal;
}

Diagnostic Missing(const std::string& path) {
  return AsInputError(MakeError(Location{InternSourceName(path)}, "", "no such file or directory"));
}

}  // namespace

MemoryTree::MemoryTree(std::map<std::string, std::string> files) {
  for (auto& [path, bytes] : files) Put(path, std::move(bytes));
}

void MemoryTree::Put(const std::string& path, std::string bytes) { files_[Normal(path)] = std::move(bytes); }

Result<EntryType> MemoryTree::Stat(const std::string& path) const {
  const std::string normal = Normal(path);
  if (files_.count(normal) != 0) return EntryType::kFile;
  if (normal == "." && !files_.empty()) return EntryType::kDirectory;
  auto next = files_.lower_bound(normal + "/");
  if (next != files_.end() && next->first.starts_with(normal + "/")) return EntryType::kDirectory;
  return Missing(path);
}

Result<std::vector<DirEntry>> MemoryTree::List(const std::string& path) const {
  Result<EntryType> type = Stat(path);
  if (!type.ok()) return type.take_error();
  if (*type != EntryType::kDirectory) {
    return AsInputError(MakeError(Location{InternSourceName(path)}, "", "not a directory"));
  }
  const std::string normal = Normal(path);
  const std::string prefix = normal == "." ? "" : normal + "/";
  std::vector<DirEntry> entries;
  std::set<std::string> folders;
  for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.starts_with(prefix); ++it) {
    const std::string rest = it->first.substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos) {
      entries.push_back({rest, EntryType::kFile});
    } else if (folders.insert(rest.substr(0, slash)).second) {
      entries.push_back({rest.substr(0, slash), EntryType::kDirectory});
    }
  }
  return entries;
}

Result<std::string> MemoryTree::Resolve(const std::string& path) const {
  Result<EntryType> type = Stat(path);
  if (!type.ok()) return type.take_error();
  return Normal(path);
}

Result<std::string> MemoryTree::Read(const std::string& path, std::size_t max_bytes) const {
  auto file = files_.find(Normal(path));
  if (file == files_.end()) {
    Result<EntryType> type = Stat(path);
    if (type.ok()) return AsInputError(MakeError(Location{InternSourceName(path)}, "", "is a directory"));
    return Missing(path);
  }
  if (file->second.size() > max_bytes) {
    return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                  "input is larger than the limit of " + std::to_string(max_bytes) + " bytes"));
  }
  return file->second;
}

}  // namespace tjr::source
