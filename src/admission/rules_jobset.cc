#include <array>

#include "admission/rules_parts.h"

namespace tjr::admission {

std::span<const RuleInfo> JobSetRuleRows() {
  static constexpr std::array<RuleInfo, 11> kRows = {{
      {"schema", "jobset",
       "the JobSet CRD's schema and CEL rules, the embedded Job template's included: types, required fields, "
       "enums (failure-policy actions and restart strategies per release), bounds, unique names, StartupPolicy "
       "InOrder with dependsOn",
       "config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml (v0.10.1, v0.11.0, v0.12.0)"},
      {"generated-names", "jobset",
       "the names the controller generates are DNS-1035 labels of at most 63 characters: group names, the "
       "last Job's name, the last Pod's name",
       "pkg/webhooks/jobset_webhook.go ValidateCreate"},
      {"subdomain", "jobset", "spec.network.subdomain is a DNS-1123 subdomain and a DNS-1035 label",
       "pkg/webhooks/jobset_webhook.go ValidateCreate"},
      {"managed-by-path", "jobset", "spec.managedBy is a domain-prefixed path of at most 63 characters",
       "pkg/webhooks/jobset_webhook.go ValidateCreate"},
      {"replicas-parallelism", "jobset", "replicas times parallelism of a replicatedJob fits in an int32",
       "pkg/webhooks/jobset_webhook.go ValidateCreate"},
      {"depends-on", "jobset",
       "dependsOn is not set on the first replicatedJob and names earlier replicatedJobs",
       "pkg/webhooks/jobset_webhook.go ValidateCreate"},
      {"policy-targets", "jobset",
       "the success and failure policies' targetReplicatedJobs name replicatedJobs of the JobSet",
       "pkg/webhooks/jobset_webhook.go ValidateCreate, validateFailurePolicy"},
      {"failure-policy", "jobset",
       "failure policy rule names (length, pattern, unique) and onJobFailureReasons",
       "pkg/webhooks/jobset_webhook.go validateFailurePolicy"},
      {"coordinator", "jobset",
       "the coordinator names an existing replicatedJob, job and pod index of an Indexed job, and its endpoint "
       "is a valid label value (from v0.11.0)",
       "pkg/webhooks/jobset_webhook.go validateCoordinator, validateCoordinatorLabelValue"},
      {"feature-gates", "jobset",
       "the InPlaceRestart restart strategy (v0.11.0) and the RestartJob actions (v0.12.0) need feature gates "
       "that are off by default",
       "pkg/webhooks/jobset_webhook.go ValidateCreate, validateFailurePolicy"},
      {"volume-claim-policies", "jobset",
       "volumeClaimPolicies template names: unique, DNS-1123 subdomains, PVC names of at most 63 characters, "
       "no volume of the same name (from v0.11.0)",
       "pkg/webhooks/jobset_webhook.go validateVolumeClaimPolicies"},
  }};
  return kRows;
}

}  // namespace tjr::admission
