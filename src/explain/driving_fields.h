#pragma once

#include <string>
#include <string_view>
#include <vector>

// Which input field drives a value the JobSet builder or a plugin computes
// (PET_NNODES from spec.trainer.numNodes, else the runtime's
// mlPolicy.numNodes): the table behind "from ..." in an explanation, for
// values that are not a copy of an input node.
namespace tjr::explain {

struct DrivingField {
  bool in_runtime = false;             ///< the runtime's field, not the TrainJob's
  std::vector<std::string_view> path;  ///< keys from the object's root
  std::string text;                    ///< how a step names it: "spec.trainer.numNodes"
};

/// The candidates for a value at `path` (an explain::Field path of the
/// JobSet) written by `layer` ("builder", "plugin torch"), most specific
/// first; the first one present in its object is the source.
std::vector<DrivingField> DrivingFieldsOf(std::string_view layer, std::string_view path);

}  // namespace tjr::explain
