#include "source/git_tree_depth.h"

#include <algorithm>
#include <string>

namespace tjr::source {
namespace {

// The folders of a path shown in a location: enough to find the folder.
constexpr std::size_t kShownFolders = 8;

}  // namespace

std::size_t FolderDepth(std::string_view path) {
  return path.empty() ? 0 : static_cast<std::size_t>(std::count(path.begin(), path.end(), '/')) + 1;
}

Diagnostic TreeTooDeep(std::string_view path, std::string_view where) {
  std::size_t end = 0;
  for (std::size_t shown = 0; shown < kShownFolders && end != std::string_view::npos; ++shown) {
    end = path.find('/', end == 0 ? 0 : end + 1);
  }
  const std::string shown = end == std::string_view::npos ? std::string(path) : std::string(path.substr(0, end)) + "/...";
  return AsInputError(MakeError(Location{InternSourceName(shown)}, "",
                                "exceeded maximum allowed tree depth: " + std::string(where) + " nests folders " +
                                    std::to_string(FolderDepth(path)) + " deep here, more than Git's " +
                                    std::to_string(kMaxTreeDepth) + " (core.maxTreeDepth)"));
}

}  // namespace tjr::source
