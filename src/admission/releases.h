#pragma once

#include <string_view>

// The Kubernetes and JobSet releases whose admission of the rendered
// objects is emulated, one row of data each (trainer/release.h names, per
// Trainer release, the row it runs against). Code asks a row what it does
// (a named behaviour), never which release it is.
namespace tjr::admission {

/// The API server of one Kubernetes minor release: its defaulting
/// (pkg/apis/core/v1/defaults.go, pkg/apis/batch/v1/defaults.go) and
/// validation (pkg/apis/core/validation, pkg/apis/batch/validation) at the
/// release tag, with the feature gates on by default there.
struct KubernetesRules {
  std::string_view version;  ///< "1.34"
  std::string_view tag;      ///< "v1.34.0": the tag its rules were read at
  // Behaviours that differ between rows are added here, one named flag each,
  // with the upstream file:line that decides it.
  /// ContainerRestartRules (pkg/features/kube_features.go: alpha 1.34, beta
  /// and on by default 1.35): regular containers and regular init containers
  /// may set restartPolicy, so validateContainers no longer forbids it and
  /// validateInitContainerRestartPolicy no longer limits it to Always.
  bool container_restart_rules = false;
  /// EnvFiles (pkg/features/kube_features.go: alpha 1.34, beta and on by
  /// default 1.35, kubernetes/kubernetes#134414): env valueFrom.fileKeyRef is
  /// a source (its selector checks are not emulated).
  bool env_files = false;
};

/// The JobSet webhook and CRD of one JobSet release
/// (pkg/webhooks/jobset_webhook.go, config/components/crd at the tag), and
/// how its controller builds the Jobs (pkg/controllers/jobset_controller.go).
struct JobSetRules {
  std::string_view version;  ///< "v0.10.1"
  /// The CRD's validation table (policies/NAME.json).
  std::string_view crd_rules;
  // Behaviours that differ between rows, one named flag each.
  /// spec.volumeClaimPolicies exists (JobSetSpec at v0.11.0): the webhook
  /// defaults and validates it, constructJob mounts its claims. Without it
  /// the API server prunes the field.
  bool volume_claim_policies = false;
  /// failurePolicy.restartStrategy's enum has InPlaceRestart (CRD at
  /// v0.11.0), which ValidateCreate refuses while the InPlaceRestart gate is
  /// off, as it is by default (pkg/features/features.go).
  bool in_place_restart_strategy = false;
  /// failurePolicy.rules[].action's enum has RestartJob and
  /// RestartJobAndIgnoreMaxRestarts (CRD at v0.12.0), which
  /// validateFailurePolicy refuses while the RestartJob gate is off.
  bool restart_job_actions = false;
  /// ValidateCreate checks the coordinator label value
  /// (validateCoordinatorLabelValue, v0.11.0).
  bool coordinator_label_check = false;
  /// ValidateCreate answers apierrors.NewInvalid, a plain error becoming
  /// field.InternalError(nil, err) (invalidError, v0.12.0); before, it
  /// answers errors.Join of the errors' texts.
  bool invalid_status_error = false;
};

/// The row of `version` ("1.34"), or nullptr.
const KubernetesRules* KubernetesRulesOf(std::string_view version);
/// The row of `version` ("v0.10.1"), or nullptr.
const JobSetRules* JobSetRulesOf(std::string_view version);

}  // namespace tjr::admission
