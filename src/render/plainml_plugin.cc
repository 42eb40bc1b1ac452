// PlainML (plugins/plainml/plainml.go at v2.1.0, v2.3.0; spec §1.5.1).
#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {

void EnforcePlainML(Info* info, const doc::Node& trainjob) {
  if (!info->ml_policy.is_null() &&
      (info->ml_policy.Find("torch") != nullptr || info->ml_policy.Find("mpi") != nullptr ||
       (trainer::ReleaseOf(info->version).jax_xgboost_flux_plugins && info->ml_policy.Find("jax") != nullptr))) {
    return;
  }
  const doc::Node* trainer = doc::FindPath(trainjob, {"spec", "trainer"});
  if (trainer == nullptr || trainer->is_null()) return;
  if (const doc::Node* num_nodes = trainer->Find("numNodes"); num_nodes != nullptr && num_nodes->is_int()) {
    if (PodSet* ps = info->FindPodSetByAncestor(kAncestorTrainer)) ps->count = static_cast<std::int32_t>(num_nodes->int_value());
  }
  if (PodSetContainer* c = info->FindContainer(kAncestorTrainer, kNode)) {
    UpsertEnvVars(&c->env, ConvertEnvVars(trainer->Find("env")));
  }
}

}  // namespace tjr::render
