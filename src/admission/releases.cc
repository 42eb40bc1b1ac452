#include "admission/releases.h"

#include <array>

namespace tjr::admission {
namespace {

constexpr std::array<KubernetesRules, 3> kKubernetes = {{
    {.version = "1.34", .tag = "v1.34.0"},
    {.version = "1.35", .tag = "v1.35.0", .container_restart_rules = true, .env_files = true},
    {.version = "1.36", .tag = "v1.36.0", .container_restart_rules = true, .env_files = true},
}};

constexpr std::array<JobSetRules, 3> kJobSet = {{
    // pkg/webhooks/jobset_webhook.go and the CRD at each tag.
    {.version = "v0.10.1",
     .crd_rules = "jobset-v0.10.1-validation"},
    {.version = "v0.11.0",
     .crd_rules = "jobset-v0.11.0-validation",
     .volume_claim_policies = true,
     .in_place_restart_strategy = true,
     .coordinator_label_check = true},
    {.version = "v0.12.0",
     .crd_rules = "jobset-v0.12.0-validation",
     .volume_claim_policies = true,
     .in_place_restart_strategy = true,
     .restart_job_actions = true,
     .coordinator_label_check = true,
     .invalid_status_error = true},
}};

}  // namespace

const KubernetesRules* KubernetesRulesOf(std::string_view version) {
  for (const KubernetesRules& row : kKubernetes) {
    if (row.version == version) return &row;
  }
  return nullptr;
}

const JobSetRules* JobSetRulesOf(std::string_view version) {
  for (const JobSetRules& row : kJobSet) {
    if (row.version == version) return &row;
  }
  return nullptr;
}

}  // namespace tjr::admission
