// ParseIndex (git_index_file.cc) on index files built byte by byte: the
// corners git rarely writes (long paths, multi-byte varints) and files it
// never writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "source/git_index_file.h"

namespace tjr::source {
namespace {

// The header, one entry of `path` (v4: stripping `strip` bytes of the
// previous path), no extension, a zero checksum.
void AppendEntry(std::string* out, std::uint32_t version, const std::string& path, std::size_t strip,
                 std::size_t full_length) {
  const std::size_t start = out->size();
  out->append(40, '\0');
  out->append(20, '\x11');
  const std::uint16_t flags = static_cast<std::uint16_t>(std::min<std::size_t>(full_length, 0xfff));
  out->push_back(static_cast<char>(flags >> 8));
  out->push_back(static_cast<char>(flags & 0xff));
  if (version == 4) {
    // Git's offset varint, small values only.
    if (strip < 128) {
      out->push_back(static_cast<char>(strip));
    } else {
      out->push_back(static_cast<char>(0x80 | ((strip >> 7) - 1)));
      out->push_back(static_cast<char>(strip & 127));
    }
    *out += path;
    out->push_back('\0');
  } else {
    *out += path;
    const std::size_t size = (62 + path.size() + 8) & ~std::size_t{7};
    out->append(size - (out->size() - start), '\0');
  }
}

std::string Header(std::uint32_t version, std::uint32_t count) {
  std::string out = "DIRC";
  for (std::uint32_t v : {version, count}) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
  }
  return out;
}

TEST(GitIndexFileTest, LongPathsAndVarints) {
  // A path of 0xfff bytes or more keeps 0xfff in its flags.
  const std::string long_path = std::string(5000, 'a');
  for (std::uint32_t version : {2u, 4u}) {
    std::string bytes = Header(version, 2);
    AppendEntry(&bytes, version, "a", 0, 1);
    // v4 keeps the previous path "a" and adds the rest.
    AppendEntry(&bytes, version, version == 4 ? long_path.substr(1) : long_path, 0, long_path.size());
    bytes.append(20, '\0');
    Result<IndexFile> parsed = ParseIndex(bytes);
    ASSERT_TRUE(parsed.ok()) << version << ": " << parsed.error().ToString();
    ASSERT_EQ(parsed->entries.size(), 2u);
    EXPECT_EQ(parsed->entries[1].path, long_path);
  }
  // v4: a two-byte varint strip (200 bytes of a 300-byte path).
  std::string bytes = Header(4, 2);
  const std::string first = std::string(300, 'b');
  const std::string second = std::string(100, 'b') + "c";
  AppendEntry(&bytes, 4, first, 0, first.size());
  AppendEntry(&bytes, 4, "c", 200, second.size());
  bytes.append(20, '\0');
  Result<IndexFile> parsed = ParseIndex(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->entries[1].path, second);
}

TEST(GitIndexFileTest, MalformedEntriesAreRefused) {
  auto one = [](std::uint32_t version, const std::string& path, std::size_t strip, std::size_t length) {
    std::string bytes = Header(version, 1);
    AppendEntry(&bytes, version, path, strip, length);
    bytes.append(20, '\0');
    return bytes;
  };
  EXPECT_TRUE(ParseIndex(one(2, "a", 0, 1)).ok());
  EXPECT_FALSE(ParseIndex(one(2, "ab", 0, 1)).ok());     // the flags disagree with the path
  EXPECT_FALSE(ParseIndex(one(4, "a", 1, 1)).ok());      // strips more than the previous path
  EXPECT_FALSE(ParseIndex(one(5, "a", 0, 1)).ok());      // an unknown version
  EXPECT_FALSE(ParseIndex(one(2, "", 0, 0)).ok());       // an empty path
  std::string unordered = Header(2, 2);
  AppendEntry(&unordered, 2, "b", 0, 1);
  AppendEntry(&unordered, 2, "a", 0, 1);
  unordered.append(20, '\0');
  EXPECT_FALSE(ParseIndex(unordered).ok());
  std::string counted = one(2, "a", 0, 1);
  counted[11] = 2;  // says two entries, holds one
  EXPECT_FALSE(ParseIndex(counted).ok());
  // A required extension, then an optional unknown one, which is skipped.
  std::string extended = Header(2, 1);
  AppendEntry(&extended, 2, "a", 0, 1);
  std::string optional = extended + std::string("ZZZZ\0\0\0\2xy", 10) + std::string(20, '\0');
  EXPECT_TRUE(ParseIndex(optional).ok());
  std::string required = extended + std::string("zzzz\0\0\0\2xy", 10) + std::string(20, '\0');
  EXPECT_FALSE(ParseIndex(required).ok());
}

TEST(GitIndexFileTest, PrefixCompressionCannotBlowUp) {
  // Each v4 entry adds one byte to a 4000-byte path: a few bytes on disk,
  // kilobytes in memory, refused past a multiple of the file's size.
  const std::size_t count = 4000;
  std::string bytes = Header(4, static_cast<std::uint32_t>(count));
  std::string path(4000, 'a');
  AppendEntry(&bytes, 4, path, 0, path.size());
  for (std::size_t i = 1; i < count; ++i) {
    path += 'b';
    AppendEntry(&bytes, 4, "b", 0, path.size());
  }
  bytes.append(20, '\0');
  Result<IndexFile> parsed = ParseIndex(bytes);
  EXPECT_FALSE(parsed.ok());
}

// A TREE extension: the root folder valid with `id_byte` ids, holding a
// valid folder `child`, or only the root.
std::string TreeExtension(char id_byte, const std::string& child) {
  std::string data = std::string("\0", 1) + (child.empty() ? "1 0\n" : "1 1\n") + std::string(20, id_byte);
  if (!child.empty()) data += child + std::string("\0", 1) + "1 0\n" + std::string(20, id_byte);
  std::string out = "TREE";
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((data.size() >> shift) & 0xff));
  return out + data;
}

TEST(GitIndexFileTest, ALaterTreeExtensionReplacesAnEarlierOne) {
  // Git keeps the last TREE extension it reads (read-cache.c); the reader
  // once kept both, so the root tree and CachedTreeOf("") disagreed and a
  // folder only the first one held stayed valid (found by the git_index
  // fuzz target).
  const std::string two = Header(2, 0) + TreeExtension('\x01', "a") + TreeExtension('\x02', "") +
                          std::string(20, '\0');
  Result<IndexFile> parsed = ParseIndex(two);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  ASSERT_TRUE(parsed->has_root_tree);
  RawOid second{};
  second.fill(0x02);
  EXPECT_EQ(parsed->root_tree, second);
  ASSERT_NE(parsed->CachedTreeOf(""), nullptr);
  EXPECT_EQ(*parsed->CachedTreeOf(""), parsed->root_tree);
  EXPECT_EQ(parsed->CachedTreeOf("a"), nullptr);
  EXPECT_EQ(parsed->cache_trees.size(), 1u);
  // An empty TREE extension last: no cache tree at all.
  Result<IndexFile> emptied = ParseIndex(Header(2, 0) + TreeExtension('\x01', "a") + std::string("TREE\0\0\0\0", 8) +
                                         std::string(20, '\0'));
  ASSERT_TRUE(emptied.ok()) << emptied.error().ToString();
  EXPECT_FALSE(emptied->has_root_tree);
  EXPECT_TRUE(emptied->cache_trees.empty());
}

}  // namespace
}  // namespace tjr::source
