#include "pipeline/ignored_fields.h"

#include <string>
#include <vector>

#include "doc/path.h"

namespace tjr::pipeline {
namespace {

constexpr std::string_view kAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";

std::string RuntimeName(const doc::Node& runtime) {
  return doc::StringAt(&runtime, "kind") + " " + doc::StringAt(doc::At(&runtime, "metadata"), "name");
}

const doc::Node* Jobs(const doc::Node& runtime) {
  return doc::FindPath(&runtime, {"spec", "template", "spec", "replicatedJobs"});
}

bool HasJobNamed(const doc::Node& runtime, std::string_view name) {
  for (const doc::Node& job : doc::Items(Jobs(runtime))) {
    if (doc::StringAt(&job, "name") == name) return true;
  }
  return false;
}

bool HasContainerNamed(const doc::Node& job, std::string_view name) {
  for (const doc::Node& container :
       doc::Items(doc::FindPath(&job, {"template", "spec", "template", "spec", "containers"}))) {
    if (doc::StringAt(&container, "name") == name) return true;
  }
  return false;
}

bool HasTrainerJob(const doc::Node& runtime) {
  for (const doc::Node& job : doc::Items(Jobs(runtime))) {
    if (doc::StringAt(doc::FindPath(&job, {"template", "metadata", "labels"}), kAncestorLabel) == "trainer") return true;
  }
  return false;
}

// The `runtimeRef` key of the TrainJob, where findings about its runtime point.
Location RuntimeRefKey(const doc::Node& trainjob) {
  const doc::Node* spec = trainjob.Find("spec");
  if (spec != nullptr && spec->is_mapping()) {
    for (const doc::Field& field : spec->fields()) {
      if (field.key == "runtimeRef" && field.key_location.known()) return field.key_location;
    }
  }
  return trainjob.location();
}

const doc::Node* Present(const doc::Node* node) { return node != nullptr && !node->is_null() ? node : nullptr; }

}  // namespace

Diagnostics CheckIgnoredTrainerFields(const doc::Node& trainjob, const doc::Node& runtime) {
  Diagnostics out;
  const doc::Node* ml_policy = doc::FindPath(&runtime, {"spec", "mlPolicy"});
  const doc::Node* trainer = Present(doc::FindPath(&trainjob, {"spec", "trainer"}));
  const bool trainer_job = HasTrainerJob(runtime);
  if (trainer == nullptr) {
    // torch.go EnforceMLPolicy (v2.1.0:126, v2.2.0:118, v2.3.0:139): the
    // trainer container is looked up only when spec.trainer is set, and
    // the PET_* values and the port go to that container alone.
    // What torchrun then does differs from what the runtime asks only when
    // the runtime asks for more than torchrun's defaults (one node, one
    // process): several nodes (each runs on its own), or an integer
    // numProcPerNode above 1 (torch.go's "auto" without spec.trainer has
    // no resourcesPerNode to count, so it comes to one process anyway).
    // The common single-node example stays silent.
    const doc::Node* nodes = doc::At(ml_policy, "numNodes");
    const bool several = nodes != nullptr && nodes->is_int() && nodes->int_value() > 1;
    const doc::Node* procs = doc::FindPath(ml_policy, {"torch", "numProcPerNode"});
    const bool many_procs = procs != nullptr && procs->is_int() && procs->int_value() > 1;
    if (Present(doc::At(ml_policy, "torch")) != nullptr && trainer_job && (several || many_procs)) {
      const std::string effect =
          several ? "torchrun runs each of the " + std::to_string(nodes->int_value()) + " nodes on its own"
                  : "torchrun starts 1 process per node, not the runtime's " + std::to_string(procs->int_value());
      out.push_back(MakeWarning(
          RuntimeRefKey(trainjob), kRuleTorchEnvNotInjected,
          "the TrainJob has no spec.trainer, so the Torch plugin of " + RuntimeName(runtime) +
              " injects no PET_* environment (PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, "
              "PET_MASTER_PORT) and no container port into the trainer's node container: " + effect +
              " (pkg/runtime/framework/plugins/torch/torch.go EnforceMLPolicy looks the container up only "
              "when spec.trainer is set); write `trainer: {}` under spec to have them"));
    }
    return out;
  }
  if (trainer_job) return out;
  const bool mpi = Present(doc::At(ml_policy, "mpi")) != nullptr;
  const bool node_job = HasJobNamed(runtime, "node");
  const doc::Node* launcher_as_node = doc::FindPath(&runtime, {"spec", "mlPolicy", "mpi", "runLauncherAsNode"});
  const bool mpi_launcher_node = mpi && node_job && launcher_as_node != nullptr && launcher_as_node->is_bool() &&
                                 launcher_as_node->bool_value();
  struct Field {
    std::string_view name;
    bool applied;  // somewhere the controller still puts it
  };
  // jobset/builder.go Builder.Trainer (v2.1.0, v2.2.0, v2.3.0: lines 113-165):
  // image, command and args go to the `node` container of the job labelled
  // trainjob-ancestor-step: trainer; env (and resourcesPerNode until v2.2,
  // core/trainingruntime.go:198-202 at v2.3.0 with the same condition) also
  // to the `node` job when MPI runs its launcher as a node. numNodes counts
  // the trainer PodSet (plainml.go, torch.go, jax.go, xgboost.go), MPI's
  // PodSet named node (mpi.go EnforceMLPolicy), and Flux reads it itself.
  const Field fields[] = {
      {"image", false},
      {"command", false},
      {"args", false},
      {"numNodes", (mpi && node_job) || Present(doc::At(ml_policy, "flux")) != nullptr},
      {"resourcesPerNode", mpi_launcher_node},
      {"env", mpi_launcher_node},
  };
  for (const Field& field : fields) {
    const doc::Node* value = Present(trainer->Find(field.name));
    if (value == nullptr || field.applied) continue;
    out.push_back(MakeWarning(
        value->location(), kRuleTrainerFieldsIgnored,
        "spec.trainer." + std::string(field.name) + " is ignored: no replicatedJob of " + RuntimeName(runtime) +
            " carries the label " + std::string(kAncestorLabel) +
            ": trainer, and the Trainer controller applies spec.trainer only to the node container of such a job "
            "(pkg/runtime/framework/plugins/jobset/builder.go Builder.Trainer); label the runtime's trainer job"));
  }
  return out;
}

Diagnostics CheckMpiRuntime(const doc::Node& runtime) {
  Diagnostics out;
  if (Present(doc::FindPath(&runtime, {"spec", "mlPolicy", "mpi"})) == nullptr) return out;
  const doc::Node* jobs = Jobs(runtime);
  const Location at = jobs != nullptr ? jobs->location() : runtime.location();
  const doc::Node* launcher_as_node = doc::FindPath(&runtime, {"spec", "mlPolicy", "mpi", "runLauncherAsNode"});
  const bool run_launcher_as_node =
      launcher_as_node != nullptr && launcher_as_node->is_bool() && launcher_as_node->bool_value();
  const bool node_job = HasJobNamed(runtime, "node");
  const bool launcher_job = HasJobNamed(runtime, "launcher");
  // mpi.go isNode (v2.1.0:334, v2.2.0:325, v2.3.0:344): the hostfile lists
  // the PodSet named node, and launcher with runLauncherAsNode.
  if (!node_job && !(run_launcher_as_node && launcher_job)) {
    out.push_back(MakeWarning(at, kRuleMpiNodeMissing,
                              "MPI " + RuntimeName(runtime) + " has no replicatedJob named node" +
                                  (run_launcher_as_node ? " or launcher" : "") +
                                  ": the MPI plugin writes the hostfile from that job alone, so mpirun gets an empty "
                                  "hostfile (pkg/runtime/framework/plugins/mpi/mpi.go isNode)" +
                                  (launcher_job ? "" : ", and it mounts the SSH keys into no job")));
  }
  // mpi.go EnforceMLPolicy (v2.1.0:139,182, v2.2.0:130,173, v2.3.0:143,190):
  // the SSH keys (and the launcher's hostfile) are mounted into the
  // container named node of the jobs named node and launcher only.
  for (const doc::Node& job : doc::Items(jobs)) {
    const std::string name = doc::StringAt(&job, "name");
    if ((name != "node" && name != "launcher") || HasContainerNamed(job, "node")) continue;
    out.push_back(MakeWarning(
        job.location(), kRuleMpiNodeMissing,
        "job " + name + " of MPI " + RuntimeName(runtime) +
            " has no container named node: the MPI plugin mounts the SSH keys" +
            (name == "launcher" ? " and the hostfile" : "") +
            " only into a container of that name, so mpirun finds none there "
            "(pkg/runtime/framework/plugins/mpi/mpi.go EnforceMLPolicy)"));
  }
  return out;
}

}  // namespace tjr::pipeline
