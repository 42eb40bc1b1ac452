#include "source/folder_facts.h"

namespace tjr::source {

FolderFacts::Folder& FolderFacts::At(std::string_view path) {
  Folder* folder = &root_;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    const std::string_view name = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    std::unique_ptr<Folder>& child = folder->children[std::string(name)];
    if (child == nullptr) child = std::make_unique<Folder>();
    folder = child.get();
    if (slash == std::string_view::npos) return *folder;
    start = slash + 1;
  }
}

}  // namespace tjr::source
