#include "source/parse_cache.h"

namespace tjr::source {

// The name, a NUL (which no path holds), then the bytes.
std::string ParseCache::Key(std::string_view name, std::string_view bytes) {
  std::string key;
  key.reserve(name.size() + 1 + bytes.size());
  key.append(name).push_back('\0');
  key.append(bytes);
  return key;
}

std::shared_ptr<const ParseCache::Documents> ParseCache::Find(std::string_view name, std::string_view bytes) const {
  const std::string key = Key(name, bytes);
  std::lock_guard lock(mutex_);
  auto found = parsed_.find(key);
  return found == parsed_.end() ? nullptr : found->second;
}

void ParseCache::Put(std::string_view name, std::string_view bytes, Documents documents) {
  auto shared = std::make_shared<const Documents>(std::move(documents));
  std::string key = Key(name, bytes);
  std::lock_guard lock(mutex_);
  parsed_.try_emplace(std::move(key), std::move(shared));
}

}  // namespace tjr::source
