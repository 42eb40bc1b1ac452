#include "base/location.h"

#include <memory>
#include <mutex>
#include <unordered_set>

#include "base/display.h"

namespace tjr {

const std::string* InternSourceName(std::string_view name) {
  // Node-based set: element addresses are stable across rehashing.
  static std::mutex mutex;
  static auto* names = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> lock(mutex);
  return &*names->emplace(name).first;
}

std::string Location::ToString() const {
  if (file == nullptr) return "<unknown>";
  if (line == 0) return QuotedName(*file);
  return QuotedName(*file) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace tjr
