#include "app/flyte_admission.h"

#include "admission/admission.h"
#include "flyte/release.h"

namespace tjr::app {

void WireFlyteAdmission(flyte::FlyteOptions* options) {
  const admission::KubernetesRules* rules =
      admission::KubernetesRulesOf(flyte::ReleaseOf(options->version).kubernetes_release);
  // A release row naming no admission row is a bug the unit test catches;
  // without rules nothing is admitted rather than everything refused.
  if (rules == nullptr) return;
  options->admit_pod_template = [rules](const doc::Node& pod_template) {
    return admission::AdmitPodTemplate(pod_template, *rules);
  };
  // A value propeller wrote (the generated name, its env vars) has no line
  // of its own: the task document that drove it is where the user looks.
  options->admit_pod = [rules](const doc::Node& pod, const doc::Node& task) {
    return admission::AdmitPod(pod, task, *rules);
  };
}

}  // namespace tjr::app
