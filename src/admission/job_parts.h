#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// What the Job's defaulting and validation share (job_defaults.cc, job.cc,
// job_spec.cc, job_policies.cc, job_selector.cc).
namespace tjr::admission::job_parts {

// The labels generateSelector writes (pkg/apis/batch/types.go).
inline constexpr std::string_view kLegacyJobNameLabel = "job-name";
inline constexpr std::string_view kJobNameLabel = "batch.kubernetes.io/job-name";
inline constexpr std::string_view kLegacyControllerUidLabel = "controller-uid";
inline constexpr std::string_view kControllerUidLabel = "batch.kubernetes.io/controller-uid";

/// The UID DefaultJob gives a Job that has none: the API server gives a
/// random one (rest.FillObjectMetaSystemFields); only a label written with
/// a conflicting value shows it ("must be '<uid>'").
inline constexpr std::string_view kStandInUid = "00000000-0000-0000-0000-000000000000";

/// A *int32 field: its value, or nullopt when absent, null or no integer.
std::optional<std::int64_t> IntAt(const doc::Node* object, std::string_view key);

/// validateJobSpec (pkg/apis/batch/validation/validation.go): the counts,
/// modes, policies, the template (ValidatePodTemplateSpec) and its
/// restartPolicy; `spec` is the Job's spec.
void ValidateJobSpecFields(const doc::Node& spec, const KubernetesRules& rules, ObjectErrors* errors);

/// validatePodFailurePolicy, the successPolicy checks of validateJobSpec
/// and validatePodReplacementPolicy, in that order.
void ValidatePodFailurePolicy(const doc::Node& spec, ObjectErrors* errors);
void ValidateSuccessPolicy(const doc::Node& spec, ObjectErrors* errors);
void ValidatePodReplacementPolicy(const doc::Node& spec, ObjectErrors* errors);

/// validateGeneratedSelector(job, validateBatchLabels=true), as the create
/// strategy calls it (RequirePrefixedLabels).
void ValidateGeneratedSelector(const doc::Node& job, ObjectErrors* errors);
/// ValidateJobSpec's selector checks: Required when absent, else
/// ValidateLabelSelector; then that it matches the template's labels.
void ValidateSpecSelector(const doc::Node& spec, ObjectErrors* errors);

/// Go's %#v of a map[string]string: `map[string]string{"a":"b", "c":"d"}`
/// (keys sorted, as fmt prints maps); `map[string]string(nil)` for none.
std::string GoStringMap(const doc::Node* labels);

}  // namespace tjr::admission::job_parts
