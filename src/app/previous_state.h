#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "batch/inventory_cache.h"
#include "app/render_source.h"
#include "doc/node.h"
#include "source/loader.h"

namespace tjr::app {

/// For `check --since BASE`: the TrainJobs of BASE as the cluster stores
/// them (API-defaulted), by "namespace/name", so that the pipeline validates
/// the source's TrainJobs as updates of them. `changed` and `train_jobs`
/// (the affected set, loaded from HEAD as `head`) limit what is read (see
/// diff::LoadBaseSide); null reads all of BASE. They were stored with the CRD defaults of BASE's
/// .tjrender.yaml target (`target` when it names none) and are read with
/// those of `target`. Without --since there is nothing to read.
std::map<std::string, doc::Node> PreviousTrainJobs(const RenderSource& input,
                                                   const std::vector<std::string>* changed,
                                                   const std::set<std::string>* train_jobs,
                                                   const source::ManifestSet& head,
                                                   const source::LoadOptions& options,
                                                   batch::InventoryCache* cache, const std::string& target);

}  // namespace tjr::app
