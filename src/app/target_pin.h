#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/tree.h"

// The Trainer release a repository deploys, as the repository itself pins
// it, for a run that names no target (no --target, no `target:` in
// .tjrender.yaml). Only files whose names can hold a pin are read, so the
// scan costs a directory walk and a few small files:
// - kustomize's kustomization.yaml / .yml / Kustomization: a resource,
//   base or component on kubeflow/trainer's manifests with `?ref=vX.Y.Z`
//   (kustomize's remote-target form), an `images` entry of the controller
//   image ghcr.io/kubeflow/trainer/trainer-controller-manager with a
//   `newTag`, a `helmCharts` entry of the kubeflow-trainer chart with a
//   `version`;
// - Helm's Chart.yaml: a `dependencies` entry of the kubeflow-trainer chart
//   with an exact `version`;
// - a Flux HelmRelease (spec.chart.spec: the kubeflow-trainer chart and its
//   version) or an Argo CD Application (spec.source or spec.sources: that
//   chart, or kubeflow/trainer's repository, at a targetRevision), in a
//   YAML file whose name says it may hold one (contains "trainer",
//   "release", "application" or "app"): such objects may live in any file,
//   and reading every file for them would double the reads; likewise the
//   controller Deployment with the trainer-controller-manager image (in
//   files named "manager", "controller", "deployment" or "install" too).
namespace tjr::app {

/// The controller image of kubeflow/trainer's manifests
/// (manifests/base/manager/manager.yaml; the overlays set its newTag).
inline constexpr char kTrainerControllerImage[] = "ghcr.io/kubeflow/trainer/trainer-controller-manager";
/// The chart's name (charts/kubeflow-trainer/Chart.yaml, published at
/// oci://ghcr.io/kubeflow/charts/kubeflow-trainer); chart versions follow
/// the release ("2.1.0").
inline constexpr char kTrainerChart[] = "kubeflow-trainer";

/// Rule ids of the warnings.
inline constexpr char kTargetPinConflictRule[] = "target-pin-conflict";
inline constexpr char kTargetPinUnsupportedRule[] = "target-pin-unsupported";

/// One pin found.
struct TargetPin {
  std::string file;      ///< as the tree names it
  std::uint32_t line = 0;
  std::string evidence;  ///< what was written: the resource URL, "image:tag", "chart version"
  std::string version;   ///< the release it names: "v2.1.0", "2.1.0"
  std::string target;    ///< the target that emulates it, or "" when none does
};

/// Every pin under the PATHs that are folders of `tree`, in walk order
/// (sorted names, hidden folders such as .git left out).
std::vector<TargetPin> FindTargetPins(const source::Tree& tree, const std::vector<std::string>& paths);

/// What the pins decide.
struct PinnedTarget {
  std::string target;  ///< "" when the default applies
  std::string note;    ///< "target trainer-v2.1 from FILE:LINE (EVIDENCE)", when one was chosen
  Diagnostics warnings;  ///< conflicting pins, a pinned release no target emulates
};

/// One target when every pin names the same one; a warning and the default
/// (`default_target`) when they disagree or one names a release tjrender
/// does not emulate.
PinnedTarget ChooseFromPins(const std::vector<TargetPin>& pins, const std::string& default_target);

}  // namespace tjr::app
