#include "app/previous_state.h"

#include "diff/base_side.h"
#include "diff/revision.h"

namespace tjr::app {

std::map<std::string, doc::Node> PreviousTrainJobs(const RenderSource& input,
                                                   const std::vector<std::string>* changed,
                                                   const std::set<std::string>* train_jobs,
                                                   const source::ManifestSet& head,
                                                   const source::LoadOptions& options,
                                                   batch::InventoryCache* cache, const std::string& target) {
  if (input.base_git == nullptr) return {};
  Result<RepoConfig> base_config = ReadRepoConfig(*input.base_git, input.config_path);
  const std::string stored_by = base_config.ok() && base_config->target ? *base_config->target : target;
  // BASE's own errors are not this check's business: the loader's
  // diagnostics are dropped, and a TrainJob BASE cannot hold is a create.
  if (changed == nullptr || train_jobs == nullptr) {
    return diff::StoredTrainJobs(source::LoadManifests(input.base_tree(), input.paths, options), stored_by, target);
  }
  return diff::StoredTrainJobs(
      diff::LoadBaseSide({input.base_tree(), *input.base_git, input.paths, *changed}, *train_jobs, head, options, cache),
      stored_by, target);
}

}  // namespace tjr::app
