// DefaultJobSet: what the API server and the JobSet webhook fill in before
// a JobSet is validated. The CRD's `default:` values are applied when the
// request is decoded and again after a mutating webhook patched it, so
// they are applied before and after the webhook's Default here.
#include <string>

#include "admission/jobset.h"
#include "admission/jobset_parts.h"
#include "admission/node_edit.h"
#include "doc/path.h"

namespace tjr::admission {
namespace {



// The `default:` values of the CRD's openAPIV3Schema at every tag:
// replicatedJobs[].groupName "default", replicatedJobs[].replicas 1,
// failurePolicy.restartStrategy "Recreate", and from v0.11.0
// volumeClaimPolicies[].retentionPolicy.whenDeleted "Delete".
void ApplyCrdDefaults(doc::Node& spec, const JobSetRules& rules) {
  if (doc::Node* jobs = spec.FindMutable("replicatedJobs"); jobs != nullptr && jobs->is_sequence()) {
    for (doc::Node& job : jobs->mutable_items()) {
      if (!job.is_mapping()) continue;
      SetIfUnset(job, "groupName", doc::Node::String("default"));
      SetIfUnset(job, "replicas", doc::Node::Int(1));
    }
  }
  if (doc::Node* policy = spec.FindMutable("failurePolicy"); policy != nullptr && policy->is_mapping()) {
    SetIfUnset(*policy, "restartStrategy", doc::Node::String("Recreate"));
  }
  if (!rules.volume_claim_policies) return;
  if (doc::Node* claims = spec.FindMutable("volumeClaimPolicies"); claims != nullptr && claims->is_sequence()) {
    for (doc::Node& claim : claims->mutable_items()) {
      doc::Node* retention = claim.is_mapping() ? claim.FindMutable("retentionPolicy") : nullptr;
      if (retention != nullptr && retention->is_mapping()) {
        SetIfUnset(*retention, "whenDeleted", doc::Node::String("Delete"));
      }
    }
  }
}

// jobSetWebhook.Default (pkg/webhooks/jobset_webhook.go at v0.10.1,
// v0.11.0, v0.12.0).
void ApplyWebhookDefaults(doc::Node& spec, const JobSetRules& rules) {
  if (doc::At(&spec, "successPolicy") == nullptr) {
    doc::Node& policy = EnsureMapping(spec, "successPolicy");
    policy.Set("operator", doc::Node::String("All"));
  }
  if (doc::At(&spec, "startupPolicy") == nullptr) {
    doc::Node& policy = EnsureMapping(spec, "startupPolicy");
    policy.Set("startupPolicyOrder", doc::Node::String("AnyOrder"));
  }
  if (doc::Node* jobs = spec.FindMutable("replicatedJobs"); jobs != nullptr && jobs->is_sequence()) {
    for (doc::Node& job : jobs->mutable_items()) {
      if (!job.is_mapping()) continue;
      doc::Node& job_spec = EnsureMapping(EnsureMapping(job, "template"), "spec");
      SetIfUnset(job_spec, "completionMode", doc::Node::String("Indexed"));
      doc::Node& pod_spec = EnsureMapping(EnsureMapping(job_spec, "template"), "spec");
      if (doc::StringAt(&pod_spec, "restartPolicy").empty()) {
        pod_spec.Set("restartPolicy", doc::Node::String("OnFailure"));
      }
    }
  }
  doc::Node& network = EnsureMapping(spec, "network");
  SetIfUnset(network, "enableDNSHostnames", doc::Node::Bool(true));
  SetIfUnset(network, "publishNotReadyAddresses", doc::Node::Bool(true));
  if (doc::Node* policy = spec.FindMutable("failurePolicy"); policy != nullptr && policy->is_mapping()) {
    if (doc::Node* policy_rules = policy->FindMutable("rules"); policy_rules != nullptr && policy_rules->is_sequence()) {
      std::size_t index = 0;
      for (doc::Node& rule : policy_rules->mutable_items()) {
        // defaultRuleNameFmt "failurePolicyRule%v".
        if (rule.is_mapping() && doc::StringAt(&rule, "name").empty()) {
          rule.Set("name", doc::Node::String("failurePolicyRule" + std::to_string(index)));
        }
        ++index;
      }
    }
  }
  if (!rules.volume_claim_policies) return;
  if (doc::Node* claims = spec.FindMutable("volumeClaimPolicies"); claims != nullptr && claims->is_sequence()) {
    for (doc::Node& claim : claims->mutable_items()) {
      if (claim.is_mapping() && doc::At(&claim, "retentionPolicy") == nullptr) {
        EnsureMapping(claim, "retentionPolicy").Set("whenDeleted", doc::Node::String("Delete"));
      }
    }
  }
}

}  // namespace

void DefaultJobSet(doc::Node* jobset, const JobSetRules& rules) {
  if (jobset == nullptr || !jobset->is_mapping()) return;
  doc::Node& spec = EnsureMapping(*jobset, "spec");
  // A release whose JobSetSpec has no volumeClaimPolicies prunes it (the
  // CRD's structural schema drops unknown fields).
  if (!rules.volume_claim_policies) spec.Erase("volumeClaimPolicies");
  ApplyCrdDefaults(spec, rules);
  ApplyWebhookDefaults(spec, rules);
  ApplyCrdDefaults(spec, rules);
}

}  // namespace tjr::admission
