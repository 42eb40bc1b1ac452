#pragma once

#include <set>
#include <string>
#include <vector>

#include "batch/inventory_cache.h"
#include "source/filtered_tree.h"
#include "source/git_tree.h"
#include "source/loader.h"

namespace tjr::diff {

/// Where BASE is read from when only some TrainJobs are compared.
struct BaseSource {
  /// BASE as directory walks see it, and the same revision for blob ids.
  const source::FilteredTree& tree;
  const source::GitTree& git;
  /// The repository paths being compared.
  std::vector<std::string> paths;
  /// Repository paths whose bytes differ between BASE and HEAD.
  std::vector<std::string> changed;
};

/// BASE's versions of the TrainJobs `train_jobs` ("namespace/name": HEAD's
/// affected set and the TrainJobs HEAD removed) and the runtimes those
/// versions reference at BASE, which may not be the ones HEAD's reference.
/// `head` is what HEAD loaded for them (batch::AffectedSet::manifests): a
/// file that did not change holds the same objects at BASE, so the files to
/// read are the changed ones and the unchanged files `head` names. Only
/// when a BASE version references a runtime found in neither is BASE's
/// inventory consulted (through `cache` by blob id, null: parsing every
/// file). Diagnostics are those of the files read.
source::ManifestSet LoadBaseSide(const BaseSource& base, const std::set<std::string>& train_jobs,
                                 const source::ManifestSet& head, const source::LoadOptions& options,
                                 batch::InventoryCache* cache);

}  // namespace tjr::diff
