#include "conformance/target.h"

#include "conformance/explain_target.h"
#include "conformance/merge_target.h"
#include "conformance/migrate_target.h"
#include "conformance/render_target.h"

namespace tjr::conformance {

const std::vector<Target>& Targets() {
  static const std::vector<Target> targets = {
      {"explain", "the provenance of chosen fields of one TrainJob's or Flyte task's rendered objects, as "
                  "`tjrender explain SUBJECT input/ --field PATH` shows it", RunExplainTarget},
      {"merge", "strategic merge of input/object.* with input/patch*.* in name order",
       RunMergeTarget},
      {"migrate", "input/ files migrated to runtimePatches, and what renders differently",
       RunMigrateTarget},
      {"render", "TrainJobs and runtimes of input/ rendered as `tjrender render input/` does", RunRenderTarget},
      {"flyte", "Flyte tasks, PodTemplates and propeller config of input/ rendered into Pods, as `tjrender render "
                "input/` does", RunRenderTarget},
  };
  return targets;
}

const Target* FindTarget(std::string_view name) {
  for (const Target& target : Targets()) {
    if (target.name == name) return &target;
  }
  return nullptr;
}

}  // namespace tjr::conformance
