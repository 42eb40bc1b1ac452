#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "doc/node.h"
#include "validate/report.h"
#include "validate/validate.h"

// The rule groups behind validate.h, one file each.
namespace tjr::validate {

// schema_rules.cc — API server, in its order: object meta, OpenAPI schema,
// list-map uniqueness, CEL.
/// metadata.name and metadata.namespace, as ValidateObjectMeta checks them.
void CheckObjectMeta(const doc::Node& object, Report* report, bool namespaced = true);
/// apiextensions-apiserver decodes a custom resource's `metadata` into
/// metav1.ObjectMeta before any validation; a wrong type (labels given as a
/// list, a label value that is a number) refuses the request with the
/// create handler's text. Returns false, with that error, when it fails.
bool CheckMetadataDecodes(const doc::Node& object, std::string_view kubernetes_policy, Report* report);
void CheckOpenApiSchema(const doc::Node& trainjob, Report* report);
void CheckListMapKeys(const doc::Node& trainjob, DuplicateStyle style, Report* report);
void CheckCelRules(const doc::Node& trainjob, const doc::Node* old, Report* report);

// removed_api.cc — from v2.2.0 on: spec.podTemplateOverrides, spec.labels
// and spec.annotations no longer exist (tjrender's own error).
void CheckRemovedFields(const doc::Node& trainjob, trainer::TrainerVersion version, Report* report);

/// What the webhook's runtime.Info holds that the plugins look at.
struct WebhookInfo {
  const doc::Node* trainjob = nullptr;
  const doc::Node* old = nullptr;
  const ValidateOptions* options = nullptr;
  const doc::Node* ml_policy = nullptr;         ///< runtime spec.mlPolicy
  const doc::Node* pod_group_policy = nullptr;  ///< runtime spec.podGroupPolicy
  /// Runtime template spec with podTemplateOverrides merged.
  doc::Node jobset_spec;
  /// JobSet annotations: runtime template's, overlaid by the TrainJob's.
  std::vector<std::pair<std::string, std::string>> annotations;
  /// The runtime template's metadata.annotations, to locate values that came from it.
  const doc::Node* runtime_annotations = nullptr;

  bool HasPodSet(std::string_view name) const;
};

// jobset_rules.cc
/// Job name -> names of its initContainers and containers, from a JobSet
/// spec. A repeated job name starts its set afresh, as the upstream map
/// assignment does.
using ContainerSets = std::map<std::string, std::set<std::string>, std::less<>>;
ContainerSets ContainerNamesByJob(const doc::Node& jobset_spec);
/// The JobSet plugin's initializer checks (dataset, then model): the job and
/// its container must exist, and from v2.3.0 the container must mount the
/// `initializer` volume.
void CheckInitializerJobs(const WebhookInfo& info, const ContainerSets& sets, Report* report);
/// The JobSet plugin's Validate at v2.1.0 (podTemplateOverrides).
void CheckJobSetPlugin(const WebhookInfo& info, Report* report);
// runtime_patch_rules.cc
/// The JobSet plugin's Validate from v2.2.0 on (runtimePatches), against
/// info.jobset_spec (the template with the patches merged).
void CheckJobSetPluginRuntimePatches(const WebhookInfo& info, Report* report);
// policy_rules.cc
void CheckTorchPlugin(const WebhookInfo& info, Report* report);
void CheckMpiPlugin(const WebhookInfo& info, Report* report);
void CheckVolcanoPlugin(const WebhookInfo& info, Report* report);
// policy_rules_v2.cc (Trainer v2.2.0+; ValidateOptions::version picks v2.2/v2.3 details)
void CheckTorchPluginV2(const WebhookInfo& info, Report* report);
void CheckMpiPluginV2(const WebhookInfo& info, Report* report);
void CheckXGBoostPlugin(const WebhookInfo& info, Report* report);
void CheckFluxPlugin(const WebhookInfo& info, Report* report);

}  // namespace tjr::validate
