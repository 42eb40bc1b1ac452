#include "source/kustomize.h"

#include <gtest/gtest.h>

namespace tjr::source {
namespace {

std::vector<std::string> Paths(const std::vector<KustomizeReference>& references) {
  std::vector<std::string> paths;
  for (const KustomizeReference& r : references) paths.push_back(r.path + " (" + r.role + ")");
  return paths;
}

TEST(KustomizeReferencesTest, EveryPatchFormAndPluginConfiguration) {
  const char kKustomization[] = R"(apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../base, job.yaml]
patches:
  - path: patches/scale.yaml
  - patch: |-
      - op: remove
        path: /metadata/namespace
    target: {kind: Namespace}
  - path: https://example.com/remote.yaml
patchesStrategicMerge:
  - ./old-style.yaml
  - |-
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: inline}
patchesJson6902:
  - target: {kind: Deployment, name: x}
    path: ../shared/json-patch.yaml
generators: [gen.yaml]
transformers: [/abs/labels.yaml, labels.yaml]
validators: [tjrender.yaml]
configurations: [kustomizeconfig.yaml]
)";
  EXPECT_EQ(Paths(KustomizeReferences(kKustomization, "overlays/prod")),
            (std::vector<std::string>{"overlays/prod/patches/scale.yaml (patch)", "overlays/shared/json-patch.yaml (patch)",
                                      "overlays/prod/old-style.yaml (patch)",
                                      "overlays/prod/gen.yaml (plugin configuration)",
                                      "overlays/prod/labels.yaml (plugin configuration)",
                                      "overlays/prod/tjrender.yaml (plugin configuration)"}));
  EXPECT_EQ(Paths(KustomizeReferences("patches: [{path: p.yaml}]\n", ".")), (std::vector<std::string>{"p.yaml (patch)"}));
}

TEST(KustomizeReferencesTest, AnythingElseGivesNothing) {
  EXPECT_TRUE(KustomizeReferences("", "a").empty());
  EXPECT_TRUE(KustomizeReferences("- a\n- b\n", "a").empty());
  EXPECT_TRUE(KustomizeReferences("patches: {path: x}\n", "a").empty());
  EXPECT_TRUE(KustomizeReferences("patches: [3, [x], {path: 7}]\n", "a").empty());
  EXPECT_TRUE(KustomizeReferences("patches: [unclosed\n", "a").empty());
}

TEST(KustomizationFileNameTest, KustomizesThreeNames) {
  EXPECT_TRUE(IsKustomizationFileName("kustomization.yaml"));
  EXPECT_TRUE(IsKustomizationFileName("kustomization.yml"));
  EXPECT_TRUE(IsKustomizationFileName("Kustomization"));
  EXPECT_FALSE(IsKustomizationFileName("Kustomization.yaml"));
}

}  // namespace
}  // namespace tjr::source
