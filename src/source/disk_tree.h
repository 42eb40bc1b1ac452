#pragma once

#include "source/tree.h"

namespace tjr::source {

/// The local file system. Relative paths are relative to the working
/// directory; reading goes through tjr::ReadFile and its size limit.
class DiskTree final : public Tree {
 public:
  Result<EntryType> Stat(const std::string& path) const override;
  Result<std::vector<DirEntry>> List(const std::string& path) const override;
  Result<std::string> Resolve(const std::string& path) const override;
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override;
};

}  // namespace tjr::source
