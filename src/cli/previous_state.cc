#include "cli/previous_state.h"

#include "diff/base_side.h"
#include "diff/revision.h"

namespace tjr::cli {

std::map<std::string, doc::Node> PreviousTrainJobs(const RenderSource& input,
                                                   const std::vector<std::string>* changed,
                                                   const std::set<std::string>* train_jobs,
                                                   const source::LoadOptions& options,
                                                   batch::InventoryCache* cache) {
  if (input.base_git == nullptr) return {};
  // BASE's own errors are not this check's business: the loader's
  // diagnostics are dropped, and a TrainJob BASE cannot hold is a create.
  if (changed == nullptr || train_jobs == nullptr) {
    return diff::StoredTrainJobs(source::LoadManifests(input.base_tree(), input.paths, options));
  }
  return diff::StoredTrainJobs(
      diff::LoadBaseSide({input.base_tree(), *input.base_git, input.paths, *changed}, *train_jobs, options, cache));
}

}  // namespace tjr::cli
