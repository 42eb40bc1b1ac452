#include "source/git_index_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tjr::source {
namespace {

constexpr std::size_t kHashSize = 20;
constexpr std::size_t kHeaderSize = 12;
// ctime, mtime (seconds and nanoseconds), dev, ino, mode, uid, gid, size,
// the object id and the 16-bit flags.
constexpr std::size_t kEntryFixed = 40 + kHashSize + 2;
constexpr std::uint16_t kFlagAssumeValid = 0x8000;
constexpr std::uint16_t kFlagExtended = 0x4000;
constexpr std::uint16_t kNameMask = 0x0fff;
constexpr std::uint16_t kExtendedSkipWorktree = 0x4000;
constexpr std::uint16_t kExtendedIntentToAdd = 0x2000;
// A rebuilt (v4) path longer than this, or all of them together beyond a
// multiple of the file's size, is refused: a few bytes of prefix
// compression must not make gigabytes.
constexpr std::size_t kMaxPath = 1 << 16;

Diagnostic Malformed(const std::string& what) {
  return AsInputError(MakeError(Location{}, "", "index: " + what));
}

std::uint32_t Be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
std::uint16_t Be16(const unsigned char* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }

// Git's offset varint (varint.c): 7 bits a byte, each continuation adds one.
bool DecodeVarint(const unsigned char** at, const unsigned char* end, std::uint64_t* value) {
  const unsigned char* p = *at;
  if (p >= end) return false;
  unsigned char c = *p++;
  std::uint64_t v = c & 127;
  while ((c & 128) != 0) {
    v += 1;
    if (v == 0 || (v >> 57) != 0) return false;  // would overflow
    if (p >= end) return false;
    c = *p++;
    v = (v << 7) + (c & 127);
  }
  *at = p;
  *value = v;
  return true;
}

// The TREE extension: per folder, in preorder, "<name>" NUL (the root's
// is empty), "<entries> <subtrees>\n", then the tree id when <entries> is
// not negative (a folder invalidated since is -1), then its subtrees.
// A later TREE extension replaces an earlier one, as in Git
// (read-cache.c read_index_extension: `istate->cache_tree =
// cache_tree_read(...)`); an empty one leaves no cache tree.
Status ReadCacheTree(const unsigned char* p, const unsigned char* end, IndexFile* index) {
  index->cache_trees.clear();
  index->has_root_tree = false;
  index->root_tree = {};
  if (p == end) return Ok();  // no cache tree
  auto number = [&](char stop, std::int64_t* out) -> bool {
    bool negative = false;
    if (p < end && *p == '-') {
      negative = true;
      ++p;
    }
    const unsigned char* digits = p;
    std::int64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
      if (v > (std::int64_t{1} << 40)) return false;
      v = v * 10 + (*p++ - '0');
    }
    if (p == digits || p >= end || *p++ != static_cast<unsigned char>(stop)) return false;
    *out = negative ? -v : v;
    return true;
  };
  struct Frame {
    std::string path;
    std::int64_t remaining;  // subtrees still to read
  };
  std::vector<Frame> frames;
  bool root = true;
  while (root || !frames.empty()) {
    if (!root && frames.back().remaining == 0) {
      frames.pop_back();
      continue;
    }
    const auto* nul = static_cast<const unsigned char*>(std::memchr(p, '\0', static_cast<std::size_t>(end - p)));
    if (nul == nullptr) return Malformed("truncated TREE extension");
    const std::string_view name(reinterpret_cast<const char*>(p), static_cast<std::size_t>(nul - p));
    if (root != name.empty() || name.find('/') != std::string_view::npos) {
      return Malformed("bad folder name in the TREE extension");
    }
    p = nul + 1;
    std::int64_t entries = 0;
    std::int64_t subtrees = 0;
    if (!number(' ', &entries) || !number('\n', &subtrees) || subtrees < 0 || entries < -1) {
      return Malformed("bad TREE extension entry");
    }
    std::string path;
    if (!root) {
      --frames.back().remaining;
      const std::string& parent = frames.back().path;
      if (parent.size() + 1 + name.size() > kMaxPath) return Malformed("bad folder name in the TREE extension");
      path = parent.empty() ? std::string(name) : parent + "/" + std::string(name);
    }
    if (entries >= 0) {
      if (static_cast<std::size_t>(end - p) < kHashSize) return Malformed("truncated TREE extension");
      RawOid id{};
      std::memcpy(id.data(), p, kHashSize);
      p += kHashSize;
      if (root) {
        index->has_root_tree = true;
        index->root_tree = id;
      }
      index->cache_trees.push_back({path, id});
    }
    // Every subtree takes at least 5 bytes: no more frames than that.
    if (subtrees > (end - p) / 5) return Malformed("bad TREE extension entry");
    if (subtrees > 0) frames.push_back({std::move(path), subtrees});
    root = false;
  }
  if (p != end) return Malformed("trailing bytes in the TREE extension");
  std::sort(index->cache_trees.begin(), index->cache_trees.end(),
            [](const CachedTree& a, const CachedTree& b) { return a.path < b.path; });
  return Ok();
}

}  // namespace

const RawOid* IndexFile::CachedTreeOf(std::string_view folder) const {
  auto at = std::lower_bound(cache_trees.begin(), cache_trees.end(), folder,
                             [](const CachedTree& tree, std::string_view f) { return tree.path < f; });
  return at != cache_trees.end() && at->path == folder ? &at->id : nullptr;
}

Result<IndexFile> ParseIndex(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < kHeaderSize + kHashSize) return Malformed("too short");
  if (std::memcmp(data, "DIRC", 4) != 0) return Malformed("not an index file");
  IndexFile index;
  index.version = Be32(data + 4);
  if (index.version < 2 || index.version > 4) {
    return Malformed("version " + std::to_string(index.version) + " is not read here");
  }
  const std::uint32_t count = Be32(data + 8);
  const unsigned char* const body_end = data + bytes.size() - kHashSize;
  const unsigned char* p = data + kHeaderSize;
  // No more entries than the bytes can hold, whatever the header says.
  if (count > static_cast<std::size_t>(body_end - p) / (kEntryFixed + 1)) return Malformed("too many entries");
  index.entries.resize(count);
  // Where each path lies in path_storage: views are made once it stops growing.
  std::vector<std::pair<std::size_t, std::size_t>> spans(count);
  index.path_storage.reserve(bytes.size());
  const std::size_t storage_limit = 16 * bytes.size() + kMaxPath;
  std::size_t previous_offset = 0;
  std::size_t previous_length = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const unsigned char* entry_start = p;
    if (static_cast<std::size_t>(body_end - p) < kEntryFixed) return Malformed("truncated entry");
    IndexEntry& entry = index.entries[i];
    entry.ctime_seconds = Be32(p);
    entry.ctime_nanoseconds = Be32(p + 4);
    entry.mtime_seconds = Be32(p + 8);
    entry.mtime_nanoseconds = Be32(p + 12);
    entry.dev = Be32(p + 16);
    entry.ino = Be32(p + 20);
    entry.mode = Be32(p + 24);
    entry.uid = Be32(p + 28);
    entry.gid = Be32(p + 32);
    entry.file_size = Be32(p + 36);
    std::memcpy(entry.id.data(), p + 40, kHashSize);
    const std::uint16_t flags = Be16(p + 40 + kHashSize);
    p += kEntryFixed;
    entry.stage = static_cast<std::uint8_t>((flags >> 12) & 3);
    entry.assume_valid = (flags & kFlagAssumeValid) != 0;
    if ((flags & kFlagExtended) != 0) {
      if (index.version < 3) return Malformed("extended flags in a version 2 index");
      if (body_end - p < 2) return Malformed("truncated entry");
      const std::uint16_t extended = Be16(p);
      p += 2;
      if ((extended & ~(kExtendedSkipWorktree | kExtendedIntentToAdd)) != 0) {
        return Malformed("unknown extended flags");
      }
      entry.skip_worktree = (extended & kExtendedSkipWorktree) != 0;
      entry.intent_to_add = (extended & kExtendedIntentToAdd) != 0;
    }
    const std::size_t flag_length = flags & kNameMask;
    std::size_t copy = 0;  // bytes of the previous path that start this one (v4)
    if (index.version == 4) {
      std::uint64_t strip = 0;
      if (!DecodeVarint(&p, body_end, &strip) || strip > previous_length) {
        return Malformed("bad path prefix");
      }
      copy = previous_length - static_cast<std::size_t>(strip);
    }
    const auto* nul = static_cast<const unsigned char*>(std::memchr(p, '\0', body_end - p));
    if (nul == nullptr) return Malformed("unterminated path");
    const std::size_t suffix = static_cast<std::size_t>(nul - p);
    const std::size_t length = copy + suffix;
    // The flags hold the length, or 0xfff for "this long or longer".
    if (flag_length < kNameMask ? length != flag_length : length < kNameMask) {
      return Malformed("path length does not match its flags");
    }
    if (length == 0 || length > kMaxPath || index.path_storage.size() + length > storage_limit) {
      return Malformed("bad path length");
    }
    const std::size_t offset = index.path_storage.size();
    if (copy > 0) {
      // By offset, after the resize: inserting a vector's own range could
      // reallocate under it.
      index.path_storage.resize(offset + copy);
      std::memcpy(index.path_storage.data() + offset, index.path_storage.data() + previous_offset, copy);
    }
    index.path_storage.insert(index.path_storage.end(), p, nul);
    spans[i] = {offset, length};
    if (index.version == 4) {
      p = nul + 1;
    } else {
      // Padded with NULs to a multiple of 8 bytes, at least one.
      const std::size_t fixed = static_cast<std::size_t>(p - entry_start);
      const std::size_t size = (fixed + length + 8) & ~std::size_t{7};
      if (static_cast<std::size_t>(body_end - entry_start) < size) return Malformed("truncated entry");
      p = entry_start + size;
    }
    // Git's order: by path bytes, then by stage; a path once per stage.
    if (i > 0) {
      const std::string_view previous(index.path_storage.data() + previous_offset, previous_length);
      const std::string_view current(index.path_storage.data() + offset, length);
      const int order = previous.compare(current);
      if (order > 0 || (order == 0 && index.entries[i - 1].stage >= entry.stage)) {
        return Malformed("entries out of order");
      }
    }
    if (entry.stage > 0) index.has_conflicts = true;
    if (entry.intent_to_add) index.has_intent_to_add = true;
    if (entry.assume_valid) index.has_assume_valid = true;
    previous_offset = offset;
    previous_length = length;
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    index.entries[i].path = std::string_view(index.path_storage.data() + spans[i].first, spans[i].second);
  }

  // Extensions: a signature, a 32-bit size, the data; then the checksum.
  while (p != body_end) {
    if (body_end - p < 8) return Malformed("truncated extension");
    const unsigned char* signature = p;
    const std::uint32_t size = Be32(p + 4);
    p += 8;
    if (static_cast<std::size_t>(body_end - p) < size) return Malformed("truncated extension");
    if (std::memcmp(signature, "TREE", 4) == 0) {
      Status root = ReadCacheTree(p, p + size, &index);
      if (!root.ok()) return root.take_error();
    } else if (signature[0] < 'A' || signature[0] > 'Z') {
      // `link` (split index), `sdir` (sparse index) or newer: the entries
      // above are not the whole index.
      return Malformed("required extension " + std::string(reinterpret_cast<const char*>(signature), 4) +
                       " is not read here");
    }
    p += size;
  }
  return index;
}

Result<ReadIndex> ReadIndexFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Malformed("cannot open " + path + ": " + std::strerror(errno));
  struct stat info {};
  std::string bytes;
  bool read_all = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  if (read_all) {
    bytes.resize(static_cast<std::size_t>(info.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    read_all = done == bytes.size();
  }
  ::close(fd);
  if (!read_all) return Malformed("cannot read " + path);
  Result<IndexFile> parsed = ParseIndex(bytes);
  if (!parsed.ok()) return parsed.take_error();
  ReadIndex out;
  out.index = std::move(*parsed);
  out.mtime_seconds = info.st_mtim.tv_sec;
  out.mtime_nanoseconds = info.st_mtim.tv_nsec;
  return out;
}

}  // namespace tjr::source
