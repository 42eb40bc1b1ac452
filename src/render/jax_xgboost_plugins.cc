// JAX and XGBoost (plugins/jax/jax.go, plugins/xgboost/xgboost.go at
// v2.3.0; both added in v2.2.0, runtimepatches spec §5.13). Neither upserts
// trainer.env into the PodSet (PlainML does, for XGBoost; the builder does
// for every trainer job).
#include <string>

#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {
namespace {

constexpr int kTrainerPort = 29500;  // constants.ContainerTrainerPort

doc::Node CompletionIndexEnv(std::string name) {
  doc::Node env = doc::Node::Mapping();
  env.Set("name", doc::Node::String(std::move(name)));
  doc::Node field_ref = doc::Node::Mapping();
  field_ref.Set("fieldPath", doc::Node::String("metadata.annotations['batch.kubernetes.io/job-completion-index']"));
  ChildPath(&env, {"valueFrom"}).Set("fieldRef", std::move(field_ref));
  return env;
}

void AddTrainerPort(PodSetContainer* container) {
  doc::Node port = doc::Node::Mapping();
  port.Set("containerPort", doc::Node::Int(kTrainerPort));
  doc::Node ports = doc::Node::Sequence();
  ports.push_back(std::move(port));
  UpsertPorts(&container->ports, ports);
}

bool HasPolicy(const Info& info, std::string_view source) {
  if (info.ml_policy.is_null()) return false;
  const doc::Node* p = info.ml_policy.Find(source);
  return p != nullptr && !p->is_null();
}

const doc::Node* Trainer(const doc::Node& trainjob) {
  const doc::Node* trainer = doc::FindPath(trainjob, {"spec", "trainer"});
  return trainer != nullptr && !trainer->is_null() ? trainer : nullptr;
}

void SetCountFromNumNodes(PodSet* ps, const doc::Node* trainer) {
  if (ps == nullptr || trainer == nullptr) return;
  if (const doc::Node* n = trainer->Find("numNodes"); n != nullptr && n->is_int()) {
    ps->count = static_cast<std::int32_t>(n->int_value());
  }
}

}  // namespace

void EnforceJAX(Info* info, const doc::Node& trainjob) {
  if (!HasPolicy(*info, "jax")) return;
  const doc::Node* trainer = Trainer(trainjob);
  PodSet* trainer_ps = info->FindPodSetByAncestor(kAncestorTrainer);
  SetCountFromNumNodes(trainer_ps, trainer);
  if (trainer == nullptr) return;
  PodSetContainer* container = info->FindContainer(kAncestorTrainer, kNode);
  if (container == nullptr) return;
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  const std::int64_t num_nodes = trainer_ps != nullptr ? trainer_ps->count : 1;
  doc::Node envs = doc::Node::Sequence();
  envs.push_back(EnvValue("JAX_NUM_PROCESSES", std::to_string(num_nodes)));
  envs.push_back(CompletionIndexEnv("JAX_PROCESS_ID"));
  envs.push_back(EnvValue("JAX_COORDINATOR_ADDRESS",
                          name + "-node-0-0." + name + ":" + std::to_string(kTrainerPort)));
  UpsertEnvVars(&container->env, envs);
  AddTrainerPort(container);
}

Status EnforceXGBoost(Info* info, const doc::Node& trainjob) {
  if (!HasPolicy(*info, "xgboost")) return Ok();
  PodSet* trainer_ps = info->FindPodSetByAncestor(kAncestorTrainer);
  if (trainer_ps == nullptr) return Ok();
  const doc::Node* trainer = Trainer(trainjob);
  SetCountFromNumNodes(trainer_ps, trainer);
  if (trainer == nullptr) return Ok();
  PodSetContainer* container = info->FindContainer(kAncestorTrainer, kNode);
  if (container == nullptr) return Ok();
  // One worker per GPU of a node (TrainJob resourcesPerNode, else the
  // runtime's), one per node without GPUs.
  Result<NodeResources> resources = TrainerResources(*info, trainjob);
  if (!resources.ok()) return resources.take_error();
  std::int64_t workers_per_node = 1;
  if (std::int64_t gpu = GpuCount(*resources); gpu > 0) workers_per_node = static_cast<std::int32_t>(gpu);
  // int32 arithmetic upstream.
  const std::int32_t total = static_cast<std::int32_t>(trainer_ps->count * workers_per_node);
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  doc::Node envs = doc::Node::Sequence();
  envs.push_back(EnvValue("DMLC_TRACKER_URI", name + "-node-0-0." + name));
  envs.push_back(EnvValue("DMLC_TRACKER_PORT", std::to_string(kTrainerPort)));
  envs.push_back(CompletionIndexEnv("DMLC_TASK_ID"));
  envs.push_back(EnvValue("DMLC_NUM_WORKER", std::to_string(total)));
  UpsertEnvVars(&container->env, envs);
  AddTrainerPort(container);
  return Ok();
}

}  // namespace tjr::render
