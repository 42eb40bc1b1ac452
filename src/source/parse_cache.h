#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::source {

/// Parsed files by name and bytes, for loads that read the same files
/// again (`diff` reads an unchanged file at both revisions): parsing is a
/// function of the two, and the trees are shared copy-on-write, so a hit
/// gives exactly what parsing again would. Safe to use from several
/// threads. Holds what it was given until it is destroyed.
class ParseCache {
 public:
  using Documents = Result<std::vector<doc::Node>>;

  /// The documents of `bytes` under `name`: parsed earlier, or by `parse`
  /// now (outside the lock; two threads may both parse, the first kept).
  Documents Parse(std::string_view name, std::string_view bytes, const std::function<Documents()>& parse);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const Documents>> parsed_;
};

}  // namespace tjr::source
