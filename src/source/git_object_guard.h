#pragma once
// Internal to the libgit2 adapter: an object database made safe for
// libgit2 to read. Includes git2.h, so no other module may include it.

#include <git2.h>

#include <string>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::source {

/// Checks every pack of the object folders `dirs` and the alternates they
/// name (ObjectFolders, CheckObjectPacks: a damaged index or pack is an
/// input error at its path) and guards `odb`'s reads of their loose objects
/// (GuardLooseObjects). `odb` must read exactly those folders.
Status GuardObjectDatabase(git_odb* odb, const std::vector<std::string>& dirs);

}  // namespace tjr::source
