#pragma once

#include <string>
#include <vector>

#include "app/render_config.h"
#include "source/disk_tree.h"
#include "source/tree.h"

namespace tjr::app {

/// The file system minus the repository configuration: .tjrender.yaml has a
/// manifest extension but is no manifest, so directory walks do not see it.
class ManifestTree : public source::Tree {
 public:
  /// `outputs`: files this run writes, never inputs (see source::DiskTree).
  explicit ManifestTree(std::vector<source::OutputFile> outputs = {}) : disk_(false, std::move(outputs)) {}

  Result<source::EntryType> Stat(const std::string& path) const override {
    return disk_.Stat(path);
  }
  Result<std::vector<source::DirEntry>> List(const std::string& path) const override {
    Result<std::vector<source::DirEntry>> entries = disk_.List(path);
    if (entries.ok()) {
      std::erase_if(*entries, [](const source::DirEntry& e) { return e.name == kRepoConfigFile; });
    }
    return entries;
  }
  Result<std::string> Resolve(const std::string& path) const override {
    return disk_.Resolve(path);
  }
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override {
    return disk_.Read(path, max_bytes);
  }

 private:
  source::DiskTree disk_;
};

}  // namespace tjr::app
