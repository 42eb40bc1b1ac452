#pragma once
// Internal to the libgit2 adapter: the object folders libgit2 reads for a
// repository, for the checks made before it reads them (git_pack_check.h,
// git_loose_guard.h).

#include <string>
#include <vector>

namespace tjr::source {

/// `objects_dir`, then the object folders its info/alternates names, each
/// followed in turn as libgit2 1.5 follows them (odb.c load_alternates): a
/// line starting with '.' is taken from `objects_dir` in the repository's
/// own file and as written (from the working directory) in an
/// alternate's; '#' lines and empty ones are skipped; five levels at most.
/// Each folder once, first-found order; folders that do not exist are left
/// out.
std::vector<std::string> ObjectFolders(const std::string& objects_dir);

}  // namespace tjr::source
