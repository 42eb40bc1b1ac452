#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "trainer/release.h"

// Admission of TrainJobs and (Cluster)TrainingRuntimes as a Kubernetes API
// server with Trainer v2.1.0, v2.2.0 or v2.3.0 installed decides it
// (ValidateOptions::version), offline. Every error's message is the upstream
// text ("<path>: <body>", apimachinery's field.Error) and its location is the
// offending node of the input; its field_path is the upstream path. From
// v2.2.0 the API server's rules come from the release's CRD table
// (crd_rules.h) and the JobSet plugin checks runtimePatches
// (runtime_patch_rules.cc).
namespace tjr::validate {

/// How the API server prints a list-map `Duplicate value` (the
/// apiextensions-apiserver passes a map[string]interface{} of the key).
enum class DuplicateStyle {
  kJson,      ///< Kubernetes 1.34 and later: {"name":"A"}
  kGoSyntax,  ///< Kubernetes 1.33 and earlier: map[string]interface {}{"name":"A"}
};

struct ValidateOptions {
  /// The Trainer release whose API server (CRDs) and webhooks decide. Under
  /// v2.2+ the webhook validates the runtimePatches merge
  /// (render::MergeJobSetTemplate) and the podTemplateOverrides rules do not
  /// apply (the field no longer exists).
  /// What each release checks differently is its row in trainer/release.cc.
  trainer::TrainerVersion version = trainer::kDefaultRelease;
  /// The stored TrainJob for an update; nullptr validates a create. Enables
  /// the CEL transition rules (runtimeRef and managedBy immutable) and the
  /// JobSet plugin's podTemplateOverrides immutability check.
  const doc::Node* old = nullptr;
  /// The JobSet named after the TrainJob as the cluster holds it, for the
  /// update check of active replicated jobs; nullptr means it does not exist.
  const doc::Node* existing_jobset = nullptr;
  /// The JobSet template the webhook validates: the runtime's with this
  /// TrainJob's patches merged for `version` (render::MergeJobSetTemplate,
  /// which the pipeline runs once for the webhook and the renderer).
  /// nullptr validates the runtime's template unmerged, as upstream's
  /// TestValidate hands it to the plugins.
  const doc::Node* merged_jobset_spec = nullptr;
  /// That merge failed: the webhook reports this error and nothing else.
  const Diagnostic* merge_error = nullptr;
  /// Names of the cluster's PriorityClasses, for the Volcano plugin; nullopt
  /// skips that lookup (an offline renderer cannot know them).
  std::optional<std::vector<std::string>> priority_classes;
  DuplicateStyle duplicate_style = DuplicateStyle::kJson;
};

/// What the API server checks before admission webhooks run: object-meta
/// name validation, the CRD's OpenAPI schema (types, enums, required fields,
/// minLength, ...), list-map key uniqueness and, unless an earlier error
/// blocks them, the CEL rules; `[field-pruned]` warnings for keys the
/// release's CRD does not have. `trainjob` is API-defaulted.
Diagnostics ValidateTrainJobSchema(const doc::Node& trainjob, const ValidateOptions& options = {});

/// The validator.trainjob.trainer.kubeflow.org webhook for a TrainJob whose
/// runtime was found (`runtime` is the API-defaulted TrainingRuntime or
/// ClusterTrainingRuntime object): the deprecated-runtime warning
/// (Severity::kWarning), then the plugins' Validate in the fixed order
/// JobSet, Torch, MPI, Volcano (upstream's order is Go map order), against
/// the runtime template with podTemplateOverrides already merged.
Diagnostics ValidateTrainJobWebhook(const doc::Node& trainjob, const doc::Node& runtime,
                                    const ValidateOptions& options = {});

/// Schema errors if there are any (the API server refuses the object before
/// webhooks see it); otherwise the webhook's findings, or none when
/// `runtime` is nullptr (resolving the runtime reference is not this
/// module's job).
Diagnostics ValidateTrainJob(const doc::Node& trainjob, const doc::Node* runtime,
                             const ValidateOptions& options = {});

/// A (Cluster)TrainingRuntime's create (kind taken from the object) as a
/// Trainer v2.1.0 cluster admits it: first the API server with the
/// release's runtime CRD (policies/trainer-v2.1.0-runtime-validation.json:
/// `[field-pruned]` warnings, the OpenAPI types, enums and constraints,
/// list-map uniqueness such as duplicate replicatedJobs names, then the CEL
/// rules); if it accepts, the validator.(cluster)trainingruntime webhook:
/// ancestor jobs must have replicas 1 and their required container, and a
/// ClusterTrainingRuntime labelled support=deprecated draws a warning.
/// TrainingRuntime updates are not validated upstream.
/// Each release's CRD: v2.2.0 allows one ML policy source of torch, mpi,
/// jax, xgboost and flux (flux numProcPerNode >= 1); v2.3.0 adds torch
/// envInjection.
Diagnostics ValidateRuntime(const doc::Node& runtime, trainer::TrainerVersion version);

/// A strategic-merge patch of a TrainJob (a kustomize patch file), which
/// kustomize merges into the TrainJob before the API server sees it: the
/// types and enums of the fields it sets, by the release's TrainJob CRD, and
/// `[field-pruned]` for fields it does not have. Nothing is required (a
/// patch names only what it changes), and the merge directives (`$patch`,
/// `$setElementOrder/...`, `$retainKeys`, ...) and `null` (delete the
/// field) are the merge's, not fields.
Diagnostics ValidateTrainJobPatchTypes(const doc::Node& patch, trainer::TrainerVersion version);

/// The aggregated error text of the errors in `diagnostics` (warnings left
/// out): field.ErrorList.ToAggregate().Error().
std::string AggregateErrors(const Diagnostics& diagnostics);

/// What kubectl shows when a validating webhook denies a request:
/// `admission webhook "<webhook>" denied the request: <aggregate>`.
std::string WebhookDenial(const Diagnostics& diagnostics,
                          std::string_view webhook = "validator.trainjob.trainer.kubeflow.org");

/// The API server's 422 message: `<Kind>.<group> "<name>" is invalid: <aggregate>`.
std::string ApiServerInvalid(const Diagnostics& diagnostics, std::string_view name,
                             std::string_view qualified_kind = "TrainJob.trainer.kubeflow.org");

}  // namespace tjr::validate
