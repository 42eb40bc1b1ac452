#pragma once
// Internal to the libgit2 adapter: a repository's packs checked before
// libgit2 reads them. libgit2 1.5 computes a version-2 pack index's
// expected size in 32 bits, so an index whose fan-out table claims 2^32-1
// objects passes its own check, and the first lookup reads gigabytes past
// the mapped file (SIGSEGV). Git's checks (packfile.c
// check_packed_git_idx, open_packed_git_1, nth_packed_object_offset) are
// made here without overflow, in Git's words, located at the file.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// What a pack index says of its pack.
struct PackIndexSummary {
  std::uint32_t version = 0;  ///< 1 or 2
  std::uint32_t objects = 0;  ///< the fan-out table's last count
  std::string pack_checksum;  ///< the pack's SHA-1, as the index holds it (a copy: the summary outlives the bytes it was read from)
};

/// The bytes of a pack index (version 1 or 2, Git's format): its size for
/// the object count the fan-out table gives, and that table never
/// decreasing. The message says what is wrong; the caller locates it.
Result<PackIndexSummary> ReadPackIndexHeader(std::string_view index);

/// Every object's offset in a pack index ReadPackIndexHeader accepted,
/// the 64-bit table's entries included, inside the objects of a pack of
/// `pack_size` bytes. One pass: linear in the index's size.
Status CheckPackOffsets(std::string_view index, const PackIndexSummary& summary, std::uint64_t pack_size);

/// A pack's first 12 bytes and its last 20 (fewer when it is shorter)
/// against what its index says: "PACK", version 2 or 3, the index's
/// object count and checksum. `pack_size` is the whole pack's.
Status CheckPackEnds(std::string_view head, std::string_view tail, std::uint64_t pack_size,
                     const PackIndexSummary& summary);

/// Every pack libgit2 would read from the object folders `folders`
/// (ObjectFolders): each pack/NAME.idx beside a NAME.pack. An index or a
/// pack found damaged is an input error at its path ("damaged pack index:
/// non-monotonic index (...)"). A pair checked once is not read again
/// while their sizes and modification times stay the same.
Status CheckObjectPacks(const std::vector<std::string>& folders);

}  // namespace tjr::source
