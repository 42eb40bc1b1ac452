#pragma once
// Internal to the libgit2 adapter: loose objects checked before libgit2
// inflates them. libgit2 1.5.1's zstream.c takes zlib's Z_BUF_ERROR (no
// input left, no output made) as progress, so a loose object whose zlib
// stream is cut short makes git_zstream_get_output loop forever: a
// truncated .git/objects/xx/... file hangs every command reading it.
// Includes git2.h, so no other module may include it.

#include <git2.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// What libgit2 reads of a loose object's file, checked on its bytes:
/// whole (`whole`: the full zlib stream ends, and ends the file) or the
/// header only (the first 1,024 bytes libgit2 reads inflate to 64 bytes or
/// to the stream's end). The message says what is wrong.
Status CheckLooseObjectBytes(std::string_view bytes, bool whole);

/// Adds to `odb` a backend of top priority that checks the loose object
/// file of each object libgit2 is about to read from one of `folders`
/// (ObjectFolders) and refuses a damaged one with a message naming its
/// path ("damaged loose object PATH: ..."); otherwise libgit2's own
/// backends read it.
Status GuardLooseObjects(git_odb* odb, const std::vector<std::string>& folders);

}  // namespace tjr::source
