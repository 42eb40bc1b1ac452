#include "source/parse_cache.h"

namespace tjr::source {

ParseCache::Documents ParseCache::Parse(std::string_view name, std::string_view bytes,
                                        const std::function<Documents()>& parse) {
  // The name, a NUL (which no path holds), then the bytes.
  std::string key;
  key.reserve(name.size() + 1 + bytes.size());
  key.append(name).push_back('\0');
  key.append(bytes);
  {
    std::lock_guard lock(mutex_);
    auto found = parsed_.find(key);
    if (found != parsed_.end()) return *found->second;
  }
  auto parsed = std::make_shared<const Documents>(parse());
  std::lock_guard lock(mutex_);
  return *parsed_.try_emplace(std::move(key), std::move(parsed)).first->second;
}

}  // namespace tjr::source
