// validateJobSpec (pkg/apis/batch/validation/validation.go at v1.34.0;
// unchanged for a create at v1.35.0 and v1.36.0): the counts and limits,
// managedBy, the completion mode and what Indexed requires, the policies
// (job_policies.cc), the template and its restartPolicy, in upstream's
// order.
#include <string>

#include "admission/container_checks.h"
#include "admission/job_parts.h"
#include "admission/pod.h"
#include "doc/path.h"
#include "validate/domain_path.h"

namespace tjr::admission::job_parts {
namespace {

using containers::Invalid;
using containers::NotSupported;
using containers::Required;
using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

// maxParallelismForIndexedJob, maxFailedIndexesForIndexedJob and the
// limits for more than completionsSoftLimit completions.
constexpr std::int64_t kMaxIndexedParallelism = 100000;
constexpr std::int64_t kMaxFailedIndexes = 100000;
constexpr std::int64_t kCompletionsSoftLimit = 100000;
constexpr std::int64_t kHighCompletionsLimit = 10000;
constexpr std::size_t kMaxManagedByLength = 63;

const Path kSpec("spec");

// apivalidation.ValidateNonnegativeField on a set *int32.
void NonNegative(const doc::Node& spec, std::string_view key, std::string_view rule, bool located_by_driver,
                 ObjectErrors* errors) {
  const std::optional<std::int64_t> value = IntAt(&spec, key);
  if (!value || *value >= 0) return;
  const doc::Node* node = doc::At(&spec, key);
  // A count the Trainer made from numNodes has no location: the driver
  // points at numNodes then, so the Job spec is no fallback here.
  errors->Add(rule, Invalid(kSpec.Child(key), BadValue::Int(*value), "must be greater than or equal to 0"),
              located_by_driver ? std::initializer_list<const doc::Node*>{node}
                                : std::initializer_list<const doc::Node*>{node, &spec});
}

void ValidateManagedBy(const doc::Node& spec, ObjectErrors* errors) {
  const doc::Node* managed_by = doc::At(&spec, "managedBy");
  if (managed_by == nullptr || !managed_by->is_string()) return;
  const std::string& value = managed_by->string_value();
  const Path path = kSpec.Child("managedBy");
  for (FieldError& error : validate::DomainPrefixedPathErrors(path.String(), value)) {
    errors->Add("managed-by", std::move(error), {managed_by, &spec});
  }
  if (value.size() > kMaxManagedByLength) {
    errors->Add("managed-by",
                FieldError{ErrorType::kTooLong, path.String(), BadValue::Omit(),
                           "may not be more than " + std::to_string(kMaxManagedByLength) + " bytes"},
                {managed_by, &spec});
  }
}

void ValidateCompletionMode(const doc::Node& spec, ObjectErrors* errors) {
  const doc::Node* mode_node = doc::At(&spec, "completionMode");
  const std::optional<std::int64_t> completions = IntAt(&spec, "completions");
  const std::optional<std::int64_t> parallelism = IntAt(&spec, "parallelism");
  const std::optional<std::int64_t> per_index = IntAt(&spec, "backoffLimitPerIndex");
  const std::optional<std::int64_t> max_failed = IntAt(&spec, "maxFailedIndexes");
  const std::string mode = mode_node != nullptr && mode_node->is_string() ? mode_node->string_value() : "";
  if (mode_node != nullptr) {
    if (mode != "NonIndexed" && mode != "Indexed") {
      errors->Add("completion-mode",
                  NotSupported(kSpec.Child("completionMode"), BadValue::String(mode), {"NonIndexed", "Indexed"}),
                  {mode_node, &spec});
    }
    if (mode == "Indexed") {
      const doc::Node* parallelism_node = doc::At(&spec, "parallelism");
      const doc::Node* max_failed_node = doc::At(&spec, "maxFailedIndexes");
      if (!completions) {
        errors->Add("completions", Required(kSpec.Child("completions"), "when completion mode is Indexed"),
                    {doc::At(&spec, "completions")});
      }
      if (parallelism && *parallelism > kMaxIndexedParallelism) {
        errors->Add("parallelism",
                    Invalid(kSpec.Child("parallelism"), BadValue::Int(*parallelism),
                            "must be less than or equal to 100000 when completion mode is Indexed"),
                    {parallelism_node});
      }
      if (completions && max_failed && *max_failed > *completions) {
        errors->Add("backoff-limit-per-index",
                    Invalid(kSpec.Child("maxFailedIndexes"), BadValue::Int(*max_failed),
                            "must be less than or equal to completions"),
                    {max_failed_node, &spec});
      }
      if (max_failed && *max_failed > kMaxFailedIndexes) {
        errors->Add("backoff-limit-per-index",
                    Invalid(kSpec.Child("maxFailedIndexes"), BadValue::Int(*max_failed),
                            "must be less than or equal to 100000"),
                    {max_failed_node, &spec});
      }
      if (completions && *completions > kCompletionsSoftLimit && per_index) {
        const std::string high = " when completions are above 100000 and used with backoff limit per index";
        if (!max_failed) {
          errors->Add("backoff-limit-per-index",
                      Required(kSpec.Child("maxFailedIndexes"), "must be specified when completions is above 100000"),
                      &spec);
        }
        if (parallelism && *parallelism > kHighCompletionsLimit) {
          errors->Add("parallelism",
                      Invalid(kSpec.Child("parallelism"), BadValue::Int(*parallelism),
                              "must be less than or equal to 10000" + high),
                      {parallelism_node});
        }
        if (max_failed && *max_failed > kHighCompletionsLimit) {
          errors->Add("backoff-limit-per-index",
                      Invalid(kSpec.Child("maxFailedIndexes"), BadValue::Int(*max_failed),
                              "must be less than or equal to 10000" + high),
                      {max_failed_node, &spec});
        }
      }
    }
  }
  if (mode_node == nullptr || mode == "NonIndexed") {
    if (per_index) {
      errors->Add("backoff-limit-per-index",
                  Invalid(kSpec.Child("backoffLimitPerIndex"), BadValue::Int(*per_index),
                          "requires indexed completion mode"),
                  {doc::At(&spec, "backoffLimitPerIndex"), &spec});
    }
    if (max_failed) {
      errors->Add("backoff-limit-per-index",
                  Invalid(kSpec.Child("maxFailedIndexes"), BadValue::Int(*max_failed),
                          "requires indexed completion mode"),
                  {doc::At(&spec, "maxFailedIndexes"), &spec});
    }
  }
}

// The template's restartPolicy: SetDefaults_PodSpec makes an unset one
// Always, so both read as missing.
void ValidateRestartPolicy(const doc::Node& spec, ObjectErrors* errors) {
  const Path path = kSpec.Child("template").Child("spec").Child("restartPolicy");
  const doc::Node* pod_spec = doc::AtPath(&spec, {"template", "spec"});
  const doc::Node* node = doc::At(pod_spec, "restartPolicy");
  const std::string policy = doc::StringAt(pod_spec, "restartPolicy");
  const std::initializer_list<const doc::Node*> at = {node, pod_spec, &spec};
  if (policy == "Always" || policy.empty()) {
    errors->Add("restart-policy-job", Required(path, "valid values: \"OnFailure\", \"Never\""), at);
  } else if (policy != "OnFailure" && policy != "Never") {
    errors->Add("restart-policy-job", NotSupported(path, BadValue::String(policy), {"OnFailure", "Never"}), at);
  } else if (doc::At(&spec, "podFailurePolicy") != nullptr && policy != "Never") {
    errors->Add("restart-policy-job",
                Invalid(path, BadValue::String(policy), "only \"Never\" is supported when podFailurePolicy is specified"),
                at);
  }
}

}  // namespace

std::optional<std::int64_t> IntAt(const doc::Node* object, std::string_view key) {
  const doc::Node* value = doc::At(object, key);
  if (value == nullptr || !value->is_int()) return std::nullopt;
  return value->int_value();
}

void ValidateJobSpecFields(const doc::Node& spec, const KubernetesRules& rules, ObjectErrors* errors) {
  NonNegative(spec, "parallelism", "parallelism", true, errors);
  NonNegative(spec, "completions", "completions", true, errors);
  NonNegative(spec, "activeDeadlineSeconds", "active-deadline-seconds", false, errors);
  NonNegative(spec, "backoffLimit", "backoff-limit", false, errors);
  NonNegative(spec, "ttlSecondsAfterFinished", "ttl-seconds-after-finished", false, errors);
  NonNegative(spec, "backoffLimitPerIndex", "backoff-limit-per-index", false, errors);
  if (IntAt(&spec, "maxFailedIndexes")) {
    NonNegative(spec, "maxFailedIndexes", "backoff-limit-per-index", false, errors);
    if (doc::At(&spec, "backoffLimitPerIndex") == nullptr) {
      errors->Add("backoff-limit-per-index",
                  Required(kSpec.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"),
                  {doc::At(&spec, "maxFailedIndexes"), &spec});
    }
  }
  ValidateManagedBy(spec, errors);
  ValidateCompletionMode(spec, errors);
  ValidatePodFailurePolicy(spec, errors);
  ValidateSuccessPolicy(spec, errors);
  ValidatePodReplacementPolicy(spec, errors);
  ValidatePodTemplateSpec(doc::At(&spec, "template"), kSpec.Child("template"), PodOwner::kJobTemplate, rules, errors);
  ValidateRestartPolicy(spec, errors);
}

}  // namespace tjr::admission::job_parts
