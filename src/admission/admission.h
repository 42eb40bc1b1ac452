#pragma once

#include <string_view>
#include <vector>

#include "admission/releases.h"
#include "base/diagnostic.h"
#include "doc/node.h"

// The cluster's admission of what tjrender renders, after the TrainJob is
// accepted: the JobSet (its CRD and webhook), the Jobs the JobSet
// controller creates (the API server's defaulting and batch/core
// validation), the ConfigMaps and PodGroups; and Flyte's Pods and the
// PodTemplates of a repository. Each refusal is an error with rule
// `rendered/<kind>/<rule>` (rules.h), located where the user can fix it, and
// its message names the refused object, then upstream's field path relative
// to it and upstream's text:
//   Job ml/llama-node-0 (created by JobSet ml/llama): spec.template.spec
//   .containers[0].resources.requests: Invalid value: "2": must be equal to
//   nvidia.com/gpu limit of 4
namespace tjr::admission {

/// The releases that admit a target's objects.
struct AdmissionRules {
  const KubernetesRules* kubernetes = nullptr;
  const JobSetRules* jobset = nullptr;
};

/// The rows a Trainer release names ("1.34", "v0.10.1"); a null member for
/// a name no row has.
AdmissionRules AdmissionRulesOf(std::string_view kubernetes, std::string_view jobset);

/// The rendered objects of one TrainJob. `trainjob` is the TrainJob as
/// written (for locations: a value the controller made is located at the
/// TrainJob field that drove it, else at the TrainJob).
Diagnostics AdmitRendered(const doc::Node& trainjob, const std::vector<doc::Node>& objects,
                          const AdmissionRules& rules);

/// A Pod as the API server validates its creation (SetDefaults_Pod and the
/// pod template defaults, then ValidatePodCreate); located at its own
/// nodes, else at `fallback`'s.
Diagnostics AdmitPod(const doc::Node& pod, const doc::Node& fallback, const KubernetesRules& rules);

/// A PodTemplate object as the API server validates its creation.
Diagnostics AdmitPodTemplate(const doc::Node& pod_template, const KubernetesRules& rules);

}  // namespace tjr::admission
