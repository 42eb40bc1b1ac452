#include "admission/rules_parts.h"

#include <array>

namespace tjr::admission {

// The rules of the Job checks (job.cc, job_spec.cc, job_policies.cc,
// job_selector.cc), all from pkg/apis/batch/validation/validation.go.
std::span<const RuleInfo> JobRuleRows() {
  static constexpr std::array<RuleInfo, 14> kRows = {{
      {"selector", "job",
       "the generated selector and the template labels it selects (job-name, controller-uid and their "
       "batch.kubernetes.io/ forms); a written selector is a valid label selector matching the template labels",
       "pkg/apis/batch/validation/validation.go validateGeneratedSelector, ValidateJobSpec"},
      {"parallelism", "job",
       "parallelism is not negative, at most 100000 for an Indexed Job (10000 above 100000 completions with a "
       "per-index backoff limit)",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"completions", "job", "completions is not negative and is set for an Indexed Job",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"active-deadline-seconds", "job", "activeDeadlineSeconds is not negative",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"backoff-limit", "job", "backoffLimit is not negative", "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"backoff-limit-per-index", "job",
       "backoffLimitPerIndex and maxFailedIndexes: not negative, Indexed only, maxFailedIndexes needs "
       "backoffLimitPerIndex and is at most completions and 100000",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"ttl-seconds-after-finished", "job", "ttlSecondsAfterFinished is not negative",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"managed-by", "job", "managedBy is a domain-prefixed path of at most 63 bytes",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"completion-mode", "job", "completionMode is NonIndexed or Indexed",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"pod-failure-policy", "job",
       "podFailurePolicy rules: actions, onExitCodes (operator, containerName, ordered unique values), "
       "onPodConditions (qualified types, statuses), exactly one of the two, at most 20 rules",
       "pkg/apis/batch/validation/validation.go validatePodFailurePolicy, validatePodFailurePolicyRule"},
      {"success-policy", "job",
       "successPolicy: Indexed only, 1 to 20 rules, each with succeededIndexes (valid intervals below "
       "completions) or succeededCount (at most completions and the indexes named)",
       "pkg/apis/batch/validation/validation.go validateSuccessPolicy, validateSuccessPolicyRule"},
      {"pod-replacement-policy", "job",
       "podReplacementPolicy is Failed or TerminatingOrFailed, Failed with a podFailurePolicy",
       "pkg/apis/batch/validation/validation.go validatePodReplacementPolicy"},
      {"restart-policy-job", "job",
       "the template's restartPolicy is OnFailure or Never (an unset one defaults to Always), Never with a "
       "podFailurePolicy",
       "pkg/apis/batch/validation/validation.go validateJobSpec"},
      {"indexed-hostname", "job", "an Indexed Job's last pod hostname (<name>-<completions-1>) is an RFC 1123 label",
       "pkg/apis/batch/validation/validation.go ValidateJob"},
  }};
  return kRows;
}

}  // namespace tjr::admission
