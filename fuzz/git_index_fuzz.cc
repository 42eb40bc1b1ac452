// The hand-written reader of Git's index file (source/git_index_file.h) on
// arbitrary bytes: an error or the entries, never a crash, a hang or a read
// out of bounds. When it accepts, what its header promises holds: entries
// in Git's order (paths by bytes, then stage, no two alike), the flags
// summarized in has_conflicts/has_intent_to_add/has_assume_valid, the
// cache-tree folders sorted and each found by CachedTreeOf.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "source/git_index_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  tjr::Result<tjr::source::IndexFile> parsed = tjr::source::ParseIndex(bytes);
  if (!parsed.ok()) return 0;
  const tjr::source::IndexFile& index = *parsed;
  if (index.version < 2 || index.version > 4) __builtin_trap();
  bool conflicts = false, intent_to_add = false, assume_valid = false;
  for (std::size_t i = 0; i < index.entries.size(); ++i) {
    const tjr::source::IndexEntry& entry = index.entries[i];
    if (entry.stage > 3) __builtin_trap();
    conflicts |= entry.stage > 0;
    intent_to_add |= entry.intent_to_add;
    assume_valid |= entry.assume_valid;
    if (i == 0) continue;
    const tjr::source::IndexEntry& previous = index.entries[i - 1];
    const int order = previous.path.compare(entry.path);
    if (order > 0 || (order == 0 && previous.stage >= entry.stage)) __builtin_trap();  // out of Git's order
  }
  if (conflicts != index.has_conflicts || intent_to_add != index.has_intent_to_add ||
      assume_valid != index.has_assume_valid) {
    __builtin_trap();
  }
  for (std::size_t i = 0; i < index.cache_trees.size(); ++i) {
    const tjr::source::CachedTree& tree = index.cache_trees[i];
    if (i > 0 && tree.path < index.cache_trees[i - 1].path) __builtin_trap();
    if (index.CachedTreeOf(tree.path) == nullptr) __builtin_trap();
  }
  if (index.has_root_tree) {
    const tjr::source::RawOid* root = index.CachedTreeOf("");
    if (root == nullptr || *root != index.root_tree) __builtin_trap();
  }
  return 0;
}
