// The (Cluster)TrainingRuntime webhook (reference §4).
#include <gtest/gtest.h>

#include "validate/test_util.h"
#include "validate/validate.h"

namespace tjr::validate {
namespace {

using testing::Messages;
using testing::Yaml;

std::string Runtime(std::string_view kind, std::string_view labels, std::string_view jobs) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: " + std::string(kind) + "\nmetadata: {name: rt" +
         std::string(labels) + "}\nspec:\n  template:\n    spec:\n      replicatedJobs:\n" + std::string(jobs);
}

constexpr std::string_view kJobs = R"(      - name: launcher
        template:
          spec: {template: {spec: {containers: [{name: node, image: x}]}}}
      - name: init
        replicas: 2
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}}
          spec: {template: {spec: {containers: [{name: init, image: busybox}]}}}
      - name: node
        replicas: 1
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec: {template: {spec: {containers: [{name: node, image: x}]}}}
      - name: custom
        replicas: 3
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: custom}}
          spec: {template: {spec: {containers: [{name: c, image: x}]}}}
)";

TEST(RuntimeWebhook, AncestorJobsNeedOneReplicaAndTheirContainer) {
  const Diagnostics found = ValidateRuntime(Yaml(Runtime("TrainingRuntime", "", kJobs)));
  EXPECT_EQ(Messages(found),
            (std::vector<std::string>{
                "spec.template.spec.replicatedJobs[1].replicas: Invalid value: 2: always must be 1",
                R"(spec.template.spec.replicatedJobs[1].template.spec.template.spec.containers: Invalid value: )"
                R"([{"name":"init","image":"busybox","resources":{}}]: must contain the required container for the )"
                "ancestor: dataset-initializer"}));
  EXPECT_EQ(WebhookDenial(found, "validator.trainingruntime.trainer.kubeflow.org"),
            "admission webhook \"validator.trainingruntime.trainer.kubeflow.org\" denied the request: [" +
                found[0].message + ", " + found[1].message + "]");
}

TEST(RuntimeWebhook, DeprecatedClusterRuntimeWarnsOnCreate) {
  const Diagnostics found = ValidateRuntime(
      Yaml(Runtime("ClusterTrainingRuntime", ", labels: {trainer.kubeflow.org/support: deprecated}", "      []\n")));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  EXPECT_EQ(found[0].message,
            "ClusterTrainingRuntime \"rt\" is deprecated and will be removed in a future release of Kubeflow Trainer. "
            "See runtime deprecation policy: "
            "https://www.kubeflow.org/docs/components/trainer/operator-guides/runtime/#runtime-deprecation-policy");
  // A namespaced TrainingRuntime never warns.
  EXPECT_TRUE(ValidateRuntime(Yaml(Runtime("TrainingRuntime", ", labels: {trainer.kubeflow.org/support: deprecated}",
                                           "      []\n")))
                  .empty());
}

TEST(RuntimeCel, ApiServerRefusesBeforeTheWebhook) {
  // trainingruntime_types.go:174-175 and the JobSet startupPolicy rule in the runtime CRD.
  const char* both = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                     "spec:\n  mlPolicy:\n    numNodes: 2\n    torch: {elasticPolicy: {maxNodes: 3}}\n    mpi: {}\n";
  EXPECT_EQ(Messages(ValidateRuntime(Yaml(both))),
            (std::vector<std::string>{
                R"(spec.mlPolicy: Invalid value: "object": numNodes should not be set if torch.elasticPolicy is configured)",
                R"(spec.mlPolicy: Invalid value: "object": Only one of the policy can be configured)"}));
  const char* ordered = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                        "spec:\n  template:\n    spec:\n      startupPolicy: {startupPolicyOrder: InOrder}\n"
                        "      replicatedJobs:\n      - name: a\n      - name: b\n        dependsOn: [{name: a}]\n";
  EXPECT_EQ(Messages(ValidateRuntime(Yaml(ordered))),
            (std::vector<std::string>{
                R"(spec.template.spec: Invalid value: "object": StartupPolicy and DependsOn APIs are mutually exclusive)"}));
  const char* any_order = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                          "spec:\n  template:\n    spec:\n      startupPolicy: {startupPolicyOrder: AnyOrder}\n"
                          "      replicatedJobs:\n      - name: b\n        dependsOn: [{name: a}]\n";
  EXPECT_TRUE(ValidateRuntime(Yaml(any_order)).empty());
}

TEST(RuntimeCel, V22PolicyRules) {
  // v2.2.0/v2.3.0 CRDs: one-of over five sources, flux numProcPerNode >= 1
  // (trainingruntime_types.go FluxMLPolicySource); elasticPolicy is gone.
  const char* flux_and_jax = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                             "spec:\n  mlPolicy:\n    numNodes: 2\n    jax: {}\n    flux: {numProcPerNode: 0}\n";
  EXPECT_EQ(Messages(ValidateRuntimeV22(Yaml(flux_and_jax))),
            (std::vector<std::string>{
                R"(spec.mlPolicy: Invalid value: "object": Only one of the policy can be configured)",
                R"(spec.mlPolicy.flux.numProcPerNode: Invalid value: "integer": NumProcPerNode in fluxPolicy must be >= 1)"}));
  // v2.1.0 knows neither jax nor flux (the API server prunes them).
  EXPECT_TRUE(ValidateRuntime(Yaml(flux_and_jax)).empty());
  const char* flux_one = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                         "spec:\n  mlPolicy:\n    numNodes: 2\n    flux: {numProcPerNode: 1}\n    torch: null\n";
  EXPECT_TRUE(ValidateRuntimeV22(Yaml(flux_one)).empty());
}

}  // namespace
}  // namespace tjr::validate
