#include "source/git_object_guard.h"

#include <algorithm>

#include "source/git_loose_guard.h"
#include "source/git_object_folders.h"
#include "source/git_pack_check.h"

namespace tjr::source {

Status GuardObjectDatabase(git_odb* odb, const std::vector<std::string>& dirs) {
  std::vector<std::string> folders;
  for (const std::string& dir : dirs) {
    for (std::string& folder : ObjectFolders(dir)) {
      if (std::find(folders.begin(), folders.end(), folder) == folders.end()) folders.push_back(std::move(folder));
    }
  }
  Status packs = CheckObjectPacks(folders);
  if (!packs.ok()) return packs;
  return GuardLooseObjects(odb, folders);
}

}  // namespace tjr::source
