// The hand-written reader of Git's index file (source/git_index_file.h) on
// arbitrary bytes: an error or the entries, never a crash, a hang or a read
// out of bounds. When it accepts, what its header promises holds: entries
// in Git's order (paths by bytes, then stage, no two alike), the flags
// summarized in has_conflicts/has_intent_to_add/has_assume_valid, the
// cache-tree folders sorted and each found by CachedTreeOf. And libgit2's
// own reader (given the bytes with a right checksum) agrees: when both
// accept, the same entries (path, stage, mode, id, size, flags).
#include <git2.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "sha1.h"
#include "source/git_index_file.h"

namespace {

// The bytes as a file libgit2 reads: the last 20 bytes replaced by the
// SHA-1 of the others (the reader under test ignores them).
const char* WriteWithChecksum(std::string_view bytes) {
  // One scratch file per process, removed when it exits.
  struct Scratch {
    std::string path;
    Scratch() {
      char name[] = "/tmp/tjr-git-index-fuzz-XXXXXX";
      const int fd = mkstemp(name);
      if (fd < 0) std::abort();
      close(fd);
      path = name;
      git_libgit2_init();
    }
    ~Scratch() { unlink(path.c_str()); }
  };
  static const Scratch scratch;
  const std::string& path = scratch.path;
  std::string content(bytes);
  const auto sum = tjr::fuzz::Sha1(std::string_view(content).substr(0, content.size() - 20));
  std::memcpy(content.data() + content.size() - 20, sum.data(), sum.size());
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr || std::fwrite(content.data(), 1, content.size(), file) != content.size()) std::abort();
  std::fclose(file);
  return path.c_str();
}

void CompareWithLibgit2(std::string_view bytes, const tjr::source::IndexFile& index) {
  git_index* theirs = nullptr;
  if (git_index_open(&theirs, WriteWithChecksum(bytes)) != 0) return;  // libgit2 refuses more
  if (git_index_entrycount(theirs) != index.entries.size()) __builtin_trap();
  for (std::size_t i = 0; i < index.entries.size(); ++i) {
    const tjr::source::IndexEntry& ours = index.entries[i];
    const git_index_entry* entry = git_index_get_byindex(theirs, i);
    if (entry == nullptr || ours.path != entry->path || ours.stage != GIT_INDEX_ENTRY_STAGE(entry) ||
        ours.mode != entry->mode || ours.file_size != entry->file_size ||
        std::memcmp(ours.id.data(), entry->id.id, 20) != 0 ||
        ours.mtime_seconds != static_cast<std::uint32_t>(entry->mtime.seconds) ||
        ours.mtime_nanoseconds != entry->mtime.nanoseconds ||
        ours.assume_valid != ((entry->flags & GIT_INDEX_ENTRY_VALID) != 0) ||
        ours.intent_to_add != ((entry->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) != 0) ||
        ours.skip_worktree != ((entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0)) {
      __builtin_trap();
    }
  }
  git_index_free(theirs);
}

}  // namespace

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
  CompareWithLibgit2(bytes, index);
  return 0;
}
