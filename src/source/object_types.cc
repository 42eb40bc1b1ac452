#include "source/object_types.h"

namespace tjr::source {

std::vector<ObjectType> TrainerObjectTypes() {
  return {
      {kTrainerApiVersion, "TrainJob", true},
      {kTrainerApiVersion, "TrainingRuntime", true},
      {kTrainerApiVersion, "ClusterTrainingRuntime", false},
  };
}

std::string ApiGroup(const std::string& api_version) {
  std::size_t slash = api_version.find('/');
  return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

}  // namespace tjr::source
