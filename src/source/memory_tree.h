#pragma once

#include <map>
#include <string>
#include <vector>

#include "source/tree.h"

namespace tjr::source {

/// Files held in memory, by '/'-separated relative path ("input/job.yaml");
/// folders are the paths' prefixes. What a caller that already holds the
/// bytes (a conformance case, a test) gives the loader, so it reads them as
/// it reads a repository.
class MemoryTree final : public Tree {
 public:
  MemoryTree() = default;
  explicit MemoryTree(std::map<std::string, std::string> files);

  /// Adds or replaces the file at `path` (normalized: "./a//b" is "a/b").
  void Put(const std::string& path, std::string bytes);

  Result<EntryType> Stat(const std::string& path) const override;
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override;
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override;

 private:
  std::map<std::string, std::string> files_;
};

}  // namespace tjr::source
