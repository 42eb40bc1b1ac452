#include "app/target_pin.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "source/memory_tree.h"

namespace tjr::app {
namespace {

// "FILE:LINE VERSION TARGET EVIDENCE" per pin.
std::vector<std::string> Pins(const source::MemoryTree& tree, std::vector<std::string> paths = {"."}) {
  std::vector<std::string> out;
  for (const TargetPin& pin : FindTargetPins(tree, paths)) {
    out.push_back(pin.file + ":" + std::to_string(pin.line) + " " + pin.version + " " +
                  (pin.target.empty() ? "-" : pin.target) + " " + pin.evidence);
  }
  return out;
}

TEST(TargetPin, KustomizeRemoteTargetsImagesAndChartsOfTrainer) {
  source::MemoryTree tree({
      {"manifests/kustomization.yaml",
       "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"
       "  - namespace.yaml\n"
       "  - https://github.com/kubeflow/trainer.git/manifests/overlays/manager?ref=v2.1.0\n"
       "  - github.com/kubeflow/trainer-extras/manifests?ref=v9.0.0\n"   // another repository
       "  - github.com/kubeflow/training-operator/manifests?ref=v1.8.0\n"
       "  - https://github.com/kubeflow/trainer.git/manifests/overlays/runtimes\n"  // no ref: no pin
       "images:\n  - name: ghcr.io/kubeflow/trainer/trainer-controller-manager\n    newTag: v2.1.0\n"
       "  - name: ghcr.io/kubeflow/trainer/other\n    newTag: v2.9.0\n"},
      // The upstream overlays' own tag, a branch and a pre-release pin nothing.
      {"upstream/kustomization.yaml",
       "images:\n- name: ghcr.io/kubeflow/trainer/trainer-controller-manager\n  newTag: latest\n"
       "resources:\n- github.com/kubeflow/trainer/manifests?ref=master\n"
       "- github.com/kubeflow/trainer/manifests?ref=v2.3.0-rc.1\n"},
      {"platform/Kustomization", "bases:\n- git@github.com:kubeflow/trainer.git//manifests?timeout=90s&ref=v2.1.3\n"},
      {"charts/app/Chart.yaml",
       "apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n  - name: kubeflow-trainer\n"
       "    version: 2.1.0\n    repository: oci://ghcr.io/kubeflow/charts\n  - name: other\n    version: 2.3.0\n"},
      {"helm/kustomization.yml", "helmCharts:\n- name: kubeflow-trainer\n  version: 2.1.0\n"},
      // Files of other names are not read, nor hidden folders.
      {"apps/trainer.yaml", "resources:\n- github.com/kubeflow/trainer/manifests?ref=v2.3.0\n"},
      {".git/kustomization.yaml", "resources:\n- github.com/kubeflow/trainer/manifests?ref=v2.3.0\n"},
  });
  EXPECT_EQ(Pins(tree),
            (std::vector<std::string>{
                "charts/app/Chart.yaml:6 2.1.0 trainer-v2.1 kubeflow-trainer chart 2.1.0",
                "helm/kustomization.yml:3 2.1.0 trainer-v2.1 kubeflow-trainer chart 2.1.0",
                "manifests/kustomization.yaml:5 v2.1.0 trainer-v2.1 "
                "https://github.com/kubeflow/trainer.git/manifests/overlays/manager?ref=v2.1.0",
                "manifests/kustomization.yaml:11 v2.1.0 trainer-v2.1 "
                "ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.1.0",
                "platform/Kustomization:2 v2.1.3 trainer-v2.1 "
                "git@github.com:kubeflow/trainer.git//manifests?timeout=90s&ref=v2.1.3",
            }));
  // Only the PATHs that are folders are walked.
  EXPECT_EQ(Pins(tree, {"platform"}).size(), 1u);
  EXPECT_TRUE(Pins(tree, {"apps/trainer.yaml"}).empty());
}

TEST(TargetPin, FluxHelmReleasesAndArgoCdApplicationsInFilesNamedForThem) {
  const std::string release =
      "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: trainer}\nspec:\n  chart:\n"
      "    spec:\n      chart: kubeflow-trainer\n      version: \"2.1.0\"\n";
  const std::string application =
      "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: trainer}\nspec:\n  sources:\n"
      "  - repoURL: ghcr.io/kubeflow/charts\n    chart: kubeflow-trainer\n    targetRevision: 2.2.0\n"
      "  - repoURL: https://github.com/kubeflow/trainer.git\n    path: manifests/overlays/manager\n"
      "    targetRevision: v2.2.0\n  - repoURL: https://github.com/kubeflow/trainer.git\n    targetRevision: HEAD\n";
  source::MemoryTree tree({
      {"clusters/prod/kubeflow-trainer.yaml", release},
      {"argocd/ml-apps.yaml", application},
      {"argocd/other.yaml", application},  // a name that says nothing: not read
      {"clusters/prod/helmrelease.yml",
       "apiVersion: v1\nkind: List\nitems:\n- " + std::string("apiVersion: helm.toolkit.fluxcd.io/v2beta1\n  kind: HelmRelease\n"
                                                                   "  spec: {chart: {spec: {chart: other, version: 1.0.0}}}\n")},
  });
  EXPECT_EQ(Pins(tree), (std::vector<std::string>{
                            "argocd/ml-apps.yaml:8 2.2.0 trainer-v2.2 Application kubeflow-trainer 2.2.0",
                            "argocd/ml-apps.yaml:11 v2.2.0 trainer-v2.2 Application "
                            "https://github.com/kubeflow/trainer.git v2.2.0",
                            "clusters/prod/kubeflow-trainer.yaml:8 2.1.0 trainer-v2.1 HelmRelease kubeflow-trainer 2.1.0",
                        }));
}

// The controller's Deployment vendored or rendered into the repository
// (upstream manifests/base/manager/manager.yaml; an install bundle).
TEST(TargetPin, TheControllerDeploymentsImageTag) {
  const std::string deployment =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kubeflow-trainer-controller-manager}\nspec:\n"
      "  template:\n    spec:\n      containers:\n      - name: manager\n"
      "        image: ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.2.1@sha256:0123\n";
  source::MemoryTree tree({
      {"vendor/trainer/base/manager/manager.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n---\n" +
                                                        deployment},
      {"install.yaml", deployment + "---\napiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
                                    "      containers: [{image: ghcr.io/kubeflow/trainer/other:v2.9.0}]\n"},
      {"deploy/other.yaml", deployment},  // a name that says nothing: not read
      {"apps/manager.yaml", "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
                            "  - image: ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.3.0\n"},  // no Deployment
  });
  EXPECT_EQ(Pins(tree), (std::vector<std::string>{
                            "install.yaml:9 v2.2.1 trainer-v2.2 "
                            "ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.2.1@sha256:0123",
                            "vendor/trainer/base/manager/manager.yaml:13 v2.2.1 trainer-v2.2 "
                            "ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.2.1@sha256:0123",
                        }));
}

TEST(TargetPin, OneTargetWhenThePinsAgree) {
  const std::vector<TargetPin> pins = {
      {"manifests/kustomization.yaml", 5, "github.com/kubeflow/trainer/manifests?ref=v2.1.0", "v2.1.0", "trainer-v2.1"},
      {"manifests/kustomization.yaml", 9, "ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.1.2", "v2.1.2",
       "trainer-v2.1"}};
  PinnedTarget chosen = ChooseFromPins(pins, "trainer-v2.3");
  EXPECT_EQ(chosen.target, "trainer-v2.1");
  EXPECT_EQ(chosen.note,
            "target trainer-v2.1 from manifests/kustomization.yaml:5 (github.com/kubeflow/trainer/manifests?ref=v2.1.0)");
  EXPECT_TRUE(chosen.warnings.empty());
  EXPECT_TRUE(ChooseFromPins({}, "trainer-v2.3").target.empty());
}

TEST(TargetPin, ConflictsAndUnemulatedReleasesKeepTheDefault) {
  const TargetPin v21{"a/kustomization.yaml", 5, "github.com/kubeflow/trainer/manifests?ref=v2.1.0", "v2.1.0",
                      "trainer-v2.1"};
  const TargetPin v23{"b/Chart.yaml", 7, "kubeflow-trainer chart 2.3.0", "2.3.0", "trainer-v2.3"};
  PinnedTarget conflict = ChooseFromPins({v21, v23}, "trainer-v2.3");
  EXPECT_TRUE(conflict.target.empty());
  ASSERT_EQ(conflict.warnings.size(), 1u);
  EXPECT_EQ(conflict.warnings[0].severity, Severity::kWarning);
  EXPECT_EQ(RuleId(conflict.warnings[0]), "target-pin-conflict");
  EXPECT_EQ(conflict.warnings[0].ToString(),
            "b/Chart.yaml:7:1: warning: [target-pin-conflict] the repository pins Trainer 2.3.0 here (kubeflow-trainer "
            "chart 2.3.0) and v2.1.0 at a/kustomization.yaml:5 (github.com/kubeflow/trainer/manifests?ref=v2.1.0); the "
            "default target trainer-v2.3 applies (pass --target or set target: in .tjrender.yaml)");
  const TargetPin v20{"c/kustomization.yaml", 3, "github.com/kubeflow/trainer/manifests?ref=v2.0.1", "v2.0.1", ""};
  PinnedTarget old = ChooseFromPins({v20}, "trainer-v2.3");
  EXPECT_TRUE(old.target.empty());
  ASSERT_EQ(old.warnings.size(), 1u);
  EXPECT_EQ(RuleId(old.warnings[0]), "target-pin-unsupported");
  EXPECT_NE(old.warnings[0].message.find("pins Trainer v2.0.1 (github.com/kubeflow/trainer/manifests?ref=v2.0.1), a "
                                         "release tjrender does not emulate; the default target trainer-v2.3 applies"),
            std::string::npos)
      << old.warnings[0].message;
}

}  // namespace
}  // namespace tjr::app
