#include "explain/driving_fields.h"

#include <array>

namespace tjr::explain {
namespace {

enum class From { kTrainJob, kRuntime };

struct Row {
  std::string_view layer;
  std::string_view marker;  ///< a substring of the value's path; "" matches every path
  From from;
  std::array<std::string_view, 4> path;  ///< keys, "" ends it
};

// Read from the plugins and the builder of Trainer v2.1-v2.3
// (pkg/runtime/framework/plugins/{torch,mpi,jax,xgboost,flux,coscheduling,
// volcano,plainml,jobset}); the TrainJob's field wins over the runtime's
// where the plugin reads both.
constexpr Row kRows[] = {
    // Every plugin that sets a job's pod count reads numNodes ("" matches any layer).
    {"", ".parallelism", From::kTrainJob, {"spec", "trainer", "numNodes"}},
    {"", ".parallelism", From::kRuntime, {"spec", "mlPolicy", "numNodes"}},
    {"", ".completions", From::kTrainJob, {"spec", "trainer", "numNodes"}},
    {"", ".completions", From::kRuntime, {"spec", "mlPolicy", "numNodes"}},
    {"plugin torch", "env[name=PET_NNODES]", From::kTrainJob, {"spec", "trainer", "numNodes"}},
    {"plugin torch", "env[name=PET_NNODES]", From::kRuntime, {"spec", "mlPolicy", "numNodes"}},
    {"plugin torch", "env[name=PET_NPROC_PER_NODE]", From::kTrainJob, {"spec", "trainer", "numProcPerNode"}},
    {"plugin torch", "env[name=PET_NPROC_PER_NODE]", From::kRuntime, {"spec", "mlPolicy", "torch", "numProcPerNode"}},
    {"plugin torch", "", From::kRuntime, {"spec", "mlPolicy", "torch"}},
    {"plugin mpi", "", From::kTrainJob, {"spec", "trainer", "numProcPerNode"}},
    {"plugin mpi", "", From::kRuntime, {"spec", "mlPolicy", "mpi"}},
    {"plugin jax", "env[name=JAX_NUM_PROCESSES]", From::kTrainJob, {"spec", "trainer", "numNodes"}},
    {"plugin jax", "env[name=JAX_NUM_PROCESSES]", From::kRuntime, {"spec", "mlPolicy", "numNodes"}},
    {"plugin jax", "", From::kRuntime, {"spec", "mlPolicy", "jax"}},
    {"plugin xgboost", "env[name=DMLC_NUM_WORKER]", From::kTrainJob, {"spec", "trainer", "numNodes"}},
    {"plugin xgboost", "env[name=DMLC_NUM_WORKER]", From::kRuntime, {"spec", "mlPolicy", "numNodes"}},
    {"plugin xgboost", "", From::kRuntime, {"spec", "mlPolicy", "xgboost"}},
    {"plugin flux", "", From::kRuntime, {"spec", "mlPolicy", "flux"}},
    {"plugin plainml", "", From::kTrainJob, {"spec", "trainer", "env"}},
    {"plugin coscheduling", "", From::kRuntime, {"spec", "podGroupPolicy", "coscheduling"}},
    {"plugin volcano", "", From::kRuntime, {"spec", "podGroupPolicy", "volcano"}},
    {"plugin jobset", "", From::kRuntime, {"spec", "template", "spec", "network"}},
    {"builder", ".image", From::kTrainJob, {"spec", "trainer", "image"}},
    {"builder", ".command", From::kTrainJob, {"spec", "trainer", "command"}},
    {"builder", ".args", From::kTrainJob, {"spec", "trainer", "args"}},
    {"builder", ".resources", From::kTrainJob, {"spec", "trainer", "resourcesPerNode"}},
    {"builder", "ownerReferences", From::kTrainJob, {"metadata", "name"}},
    {"builder", "metadata.name", From::kTrainJob, {"metadata", "name"}},
    {"builder", "metadata.namespace", From::kTrainJob, {"metadata", "namespace"}},
    {"builder", "spec.suspend", From::kTrainJob, {"spec", "suspend"}},
    {"builder", "spec.managedBy", From::kTrainJob, {"spec", "managedBy"}},
    {"builder", "metadata.labels", From::kTrainJob, {"spec", "labels"}},
    {"builder", "metadata.annotations", From::kTrainJob, {"spec", "annotations"}},
};

}  // namespace

std::vector<DrivingField> DrivingFieldsOf(std::string_view layer, std::string_view path) {
  std::vector<DrivingField> out;
  for (const Row& row : kRows) {
    if ((!row.layer.empty() && row.layer != layer) || path.find(row.marker) == std::string_view::npos) continue;
    DrivingField field;
    field.in_runtime = row.from == From::kRuntime;
    for (std::string_view key : row.path) {
      if (key.empty()) break;
      field.path.push_back(key);
      if (!field.text.empty()) field.text += '.';
      field.text += key;
    }
    if (field.in_runtime) field.text = "the runtime's " + field.text;
    out.push_back(std::move(field));
  }
  return out;
}

}  // namespace tjr::explain
