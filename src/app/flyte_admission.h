#pragma once

#include "flyte/render.h"

// The cluster's admission of what a Flyte render reads and makes: the API
// server's validation of every PodTemplate of the inputs and of every
// rendered Pod (admission/admission.h). flyte/ sits below admission/, so
// the use cases wire one into the other here.
namespace tjr::app {

/// Sets options->admit_pod_template and options->admit_pod to the API
/// server of the Kubernetes release options->version runs against
/// (flyte::Release::kubernetes_release). Findings are rendered/pod/<rule>
/// and rendered/podtemplate/<rule> errors, their messages naming the
/// object: `PodTemplate flyte/gpu: template.spec.containers[0].image:
/// Required value`.
void WireFlyteAdmission(flyte::FlyteOptions* options);

}  // namespace tjr::app
