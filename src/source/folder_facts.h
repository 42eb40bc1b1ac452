#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tjr::source {

/// What a walk learnt about folders, by path as written ("a/b", "./a",
/// "/x"), kept as a tree of their names: memory linear in the names
/// however deep the folders (a set of the full paths of a folder and each
/// of its parents grows with the square of the depth: 1.7 GB for 4,096
/// folders of 200-byte names).
class FolderFacts {
 public:
  struct Folder {
    bool kustomizations_checked = false;  // its kustomization files looked for, and its parents'
    bool listed = false;                  // the two below are known
    bool has_chart_file = false;
    std::vector<std::string> kustomization_files;  // the names of kKustomizationFileNames it holds
    std::unordered_map<std::string, std::unique_ptr<Folder>> children;
  };

  /// The facts of the folder `path` (split at each '/'), made on first use.
  Folder& At(std::string_view path);

 private:
  Folder root_;
};

}  // namespace tjr::source
