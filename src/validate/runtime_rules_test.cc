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

std::string Pruned(std::string_view path, std::string_view release, std::string_view kind = "ClusterTrainingRuntime") {
  return "[field-pruned] unknown field \"" + std::string(path) + "\": the Trainer " + std::string(release) + " " +
         std::string(kind) +
         " schema has no such field, so the API server drops it and it has no effect (kubectl apply refuses the "
         "object under its default --validate=strict; other clients get at most a warning)";
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
  const Diagnostics found = ValidateRuntime(Yaml(Runtime("TrainingRuntime", "", kJobs)), trainer::TrainerVersion::kV2_1);
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
      Yaml(Runtime("ClusterTrainingRuntime", ", labels: {trainer.kubeflow.org/support: deprecated}", "      []\n")),
      trainer::TrainerVersion::kV2_1);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  EXPECT_EQ(found[0].message,
            "ClusterTrainingRuntime \"rt\" is deprecated and will be removed in a future release of Kubeflow Trainer. "
            "See runtime deprecation policy: "
            "https://www.kubeflow.org/docs/components/trainer/operator-guides/runtime/#runtime-deprecation-policy");
  // A namespaced TrainingRuntime never warns.
  EXPECT_TRUE(ValidateRuntime(Yaml(Runtime("TrainingRuntime", ", labels: {trainer.kubeflow.org/support: deprecated}",
                                           "      []\n")), trainer::TrainerVersion::kV2_1)
                  .empty());
}

TEST(RuntimeCel, ApiServerRefusesBeforeTheWebhook) {
  // trainingruntime_types.go:174-175 and the JobSet startupPolicy rule in the runtime CRD.
  const char* both = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                     "spec:\n  mlPolicy:\n    numNodes: 2\n    torch: {elasticPolicy: {maxNodes: 3}}\n    mpi: {}\n";
  EXPECT_EQ(Messages(ValidateRuntime(Yaml(both), trainer::TrainerVersion::kV2_1)),
            (std::vector<std::string>{
                R"(spec.mlPolicy: Invalid value: "object": numNodes should not be set if torch.elasticPolicy is configured)",
                R"(spec.mlPolicy: Invalid value: "object": Only one of the policy can be configured)"}));
  const char* ordered = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                        "spec:\n  template:\n    spec:\n      startupPolicy: {startupPolicyOrder: InOrder}\n"
                        "      replicatedJobs:\n      - name: a\n        template: {spec: {template: {}}}\n"
                        "      - name: b\n        template: {spec: {template: {}}}\n"
                        "        dependsOn: [{name: a, status: Ready}]\n";
  EXPECT_EQ(Messages(ValidateRuntime(Yaml(ordered), trainer::TrainerVersion::kV2_1)),
            (std::vector<std::string>{
                R"(spec.template.spec: Invalid value: "object": StartupPolicy and DependsOn APIs are mutually exclusive)"}));
  const char* any_order = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                          "spec:\n  template:\n    spec:\n      startupPolicy: {startupPolicyOrder: AnyOrder}\n"
                          "      replicatedJobs:\n      - name: b\n        template: {spec: {template: {}}}\n"
                          "        dependsOn: [{name: a, status: Complete}]\n";
  EXPECT_TRUE(ValidateRuntime(Yaml(any_order), trainer::TrainerVersion::kV2_1).empty());
}

TEST(RuntimeCel, V22PolicyRules) {
  // v2.2.0/v2.3.0 CRDs: one-of over five sources, flux numProcPerNode >= 1
  // (trainingruntime_types.go FluxMLPolicySource); elasticPolicy is gone.
  const char* flux_and_jax = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                             "spec:\n  mlPolicy:\n    numNodes: 2\n    jax: {}\n    flux: {numProcPerNode: 0}\n";
  EXPECT_EQ(Messages(ValidateRuntime(Yaml(flux_and_jax), trainer::TrainerVersion::kV2_2)),
            (std::vector<std::string>{
                R"(spec.mlPolicy: Invalid value: "object": Only one of the policy can be configured)",
                R"(spec.mlPolicy.flux.numProcPerNode: Invalid value: "integer": NumProcPerNode in fluxPolicy must be >= 1)"}));
  // v2.1.0 knows neither jax nor flux: the API server prunes them (tjrender warns).
  EXPECT_EQ(Messages(ValidateRuntime(Yaml(flux_and_jax), trainer::TrainerVersion::kV2_1)),
            (std::vector<std::string>{
                Pruned("spec.mlPolicy.jax", "v2.1.0", "TrainingRuntime"),
                Pruned("spec.mlPolicy.flux", "v2.1.0", "TrainingRuntime")}));
  const char* flux_one = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
                         "spec:\n  mlPolicy:\n    numNodes: 2\n    flux: {numProcPerNode: 1}\n    torch: null\n";
  EXPECT_TRUE(ValidateRuntime(Yaml(flux_one), trainer::TrainerVersion::kV2_2).empty());
}

// --- The API server's schema checks of runtimes (policies/trainer-*-runtime-validation.json).

constexpr trainer::TrainerVersion kV21 = trainer::TrainerVersion::kV2_1;
constexpr trainer::TrainerVersion kV22 = trainer::TrainerVersion::kV2_2;
constexpr trainer::TrainerVersion kV23 = trainer::TrainerVersion::kV2_3;

Diagnostics ValidateAt(trainer::TrainerVersion version, const doc::Node& runtime) {
  return ValidateRuntime(runtime, version);
}

// A ClusterTrainingRuntime with `ml_policy` (YAML under spec.mlPolicy,
// indented 4) and one trainer job `node`, whose pod spec gets `pod` (YAML
// under the pod spec, indented 18).
doc::Node TorchRuntime(std::string_view ml_policy, std::string_view pod = "") {
  return Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: rt}\n"
              "spec:\n  mlPolicy:\n" + std::string(ml_policy) +
              "  template:\n    spec:\n      replicatedJobs:\n      - name: node\n        template:\n"
              "          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}\n"
              "          spec:\n            template:\n              spec:\n"
              "                containers: [{name: node, image: pytorch}]\n" + std::string(pod));
}

const std::string kBlocked =
    "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct "
    "the existing errors to complete validation";


TEST(RuntimeSchema, TorchNumProcPerNodeIsPrunedFromV22) {
  // v2.2.0 and v2.3.0 CRDs: TorchMLPolicySource has no numProcPerNode
  // (v2.2.0: torch is an object without properties; v2.3.0: envInjection only).
  const doc::Node runtime = TorchRuntime("    torch: {numProcPerNode: auto}\n");
  for (trainer::TrainerVersion version : {kV22, kV23}) {
    const Diagnostics found = ValidateAt(version, runtime);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, Severity::kWarning);
    EXPECT_EQ(found[0].message,
              Pruned("spec.mlPolicy.torch.numProcPerNode", version == kV22 ? "v2.2.0" : "v2.3.0"));
    EXPECT_EQ(RuleId(found[0]), "field-pruned");
    EXPECT_EQ(testing::LineCol(found[0]), "6:29");  // at the value
  }
  // v2.1.0 has it (int or string).
  EXPECT_TRUE(ValidateAt(kV21, runtime).empty());
}

TEST(RuntimeSchema, TyposArePrunedAtV21Too) {
  const doc::Node runtime = TorchRuntime("    numNode: 2\n    torch: {}\n", "                hostNetwrok: true\n");
  EXPECT_EQ(Messages(ValidateAt(kV21, runtime)),
            (std::vector<std::string>{
                Pruned("spec.mlPolicy.numNode", "v2.1.0"),
                Pruned("spec.template.spec.replicatedJobs[0].template.spec.template.spec.hostNetwrok", "v2.1.0")}));
}

TEST(RuntimeSchema, DuplicateReplicatedJobNamesAtEveryRelease) {
  // The runtime CRDs (v2.1.0-v2.3.0) embed JobSetSpec.replicatedJobs as
  // x-kubernetes-list-type: map keyed by name.
  const doc::Node runtime = TorchRuntime(
      "    torch: {}\n",
      "      - name: node\n        template: {spec: {template: {spec: {containers: [{name: node, image: x}]}}}}\n");
  for (trainer::TrainerVersion version : {kV21, kV22, kV23}) {
    // The webhook does not run once the API server refuses.
    EXPECT_EQ(Messages(ValidateAt(version, runtime)),
              std::vector<std::string>{"spec.template.spec.replicatedJobs[1]: Duplicate value: {\"name\":\"node\"}"});
  }
}

TEST(RuntimeSchema, WrongTypesAreRefusedWithKubeOpenApiText) {
  // kube-openapi validate/type.go: an int32 field names its format when the
  // value is not a string or a list; a string names the schema type.
  EXPECT_EQ(Messages(ValidateAt(kV23, TorchRuntime("    numNodes: \"2\"\n    torch: {}\n"))),
            (std::vector<std::string>{"spec.mlPolicy.numNodes: Invalid value: \"string\": spec.mlPolicy.numNodes in "
                                      "body must be of type integer: \"string\"",
                                      kBlocked}));
  EXPECT_EQ(Messages(ValidateAt(kV23, TorchRuntime("    numNodes: true\n    torch: {}\n"))),
            (std::vector<std::string>{
                "spec.mlPolicy.numNodes: Invalid value: \"\": spec.mlPolicy.numNodes in body must be of type int32: "
                "\"\"",
                kBlocked}));
  // An integral float is an integer; 2.5 is not.
  EXPECT_TRUE(ValidateAt(kV23, TorchRuntime("    numNodes: 2.0\n    torch: {}\n")).empty());
  EXPECT_EQ(Messages(ValidateAt(kV23, TorchRuntime("    numNodes: 2.5\n    torch: {}\n")))[0],
            "spec.mlPolicy.numNodes: Invalid value: \"float64\": spec.mlPolicy.numNodes in body must be of type "
            "int32: \"float64\"");
  // A label value must be a string (map values: `.key` in kube-openapi's path).
  const doc::Node labels = Yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
      "spec:\n  template:\n    metadata: {labels: {version: 2}}\n");
  EXPECT_EQ(Messages(ValidateAt(kV21, labels)),
            (std::vector<std::string>{"spec.template.metadata.labels.version: Invalid value: \"integer\": "
                                      "spec.template.metadata.labels.version in body must be of type string: "
                                      "\"integer\"",
                                      kBlocked}));
}

TEST(RuntimeSchema, IntOrStringAlsoFailsItsAnyOf) {
  // v2.1.0 TorchMLPolicySource.numProcPerNode is x-kubernetes-int-or-string:
  // the type [integer, string] fails, then the anyOf (first alternative's
  // failure kept), and CEL does not run.
  EXPECT_EQ(Messages(ValidateAt(kV21, TorchRuntime("    torch: {numProcPerNode: [4]}\n"))),
            (std::vector<std::string>{
                "spec.mlPolicy.torch.numProcPerNode: Invalid value: \"array\": spec.mlPolicy.torch.numProcPerNode in "
                "body must be of type integer,string: \"array\"",
                "<nil>: Invalid value: \"\": \"spec.mlPolicy.torch.numProcPerNode\" must validate at least one "
                "schema (anyOf)",
                "spec.mlPolicy.torch.numProcPerNode: Invalid value: \"array\": spec.mlPolicy.torch.numProcPerNode in "
                "body must be of type integer: \"array\"",
                kBlocked}));
  EXPECT_TRUE(ValidateAt(kV21, TorchRuntime("    torch: {numProcPerNode: 4}\n")).empty());
  EXPECT_TRUE(ValidateAt(kV21, TorchRuntime("    torch: {numProcPerNode: gpu}\n")).empty());
}

TEST(RuntimeSchema, EnumIsUnsupportedValue) {
  EXPECT_EQ(Messages(ValidateAt(kV22, TorchRuntime("    mpi: {mpiImplementation: Intel}\n"))),
            (std::vector<std::string>{"spec.mlPolicy.mpi.mpiImplementation: Unsupported value: \"Intel\": supported "
                                      "values: \"OpenMPI\", \"\"",
                                      kBlocked}));
}

TEST(RuntimeSchema, SpecNeedsAPropertyAfterPruning) {
  // minProperties: 1 on spec; pruning runs first.
  const doc::Node runtime = Yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
      "spec: {templates: {}}\n");
  EXPECT_EQ(Messages(ValidateAt(kV23, runtime)),
            (std::vector<std::string>{Pruned("spec.templates", "v2.3.0", "TrainingRuntime"),
                                      "spec: Invalid value: 0: spec in body should have at least 1 properties"}));
}

TEST(RuntimeSchema, RequiredReplicatedJobFields) {
  const doc::Node runtime = Yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: rt}\n"
      "spec:\n  template:\n    spec:\n      replicatedJobs:\n      - name: node\n");
  EXPECT_EQ(Messages(ValidateAt(kV21, runtime)),
            (std::vector<std::string>{"spec.template.spec.replicatedJobs[0].template: Required value", kBlocked}));
}

TEST(RuntimeSchema, EnvInjectionMayNotNameTheNodeContainer) {
  // v2.3.0 EnvInjectionTarget.containerNames: !self.exists(c, c == 'node').
  const doc::Node runtime =
      TorchRuntime("    torch:\n      envInjection:\n        targets:\n"
                   "        - {jobName: node, containerNames: [sidecar, node]}\n");
  EXPECT_EQ(Messages(ValidateAt(kV23, runtime)),
            std::vector<std::string>{"spec.mlPolicy.torch.envInjection.targets[0].containerNames: Invalid value: "
                                     "\"array\": containerNames must not include the main node container because "
                                     "PET_* envs are always injected into it"});
}

}  // namespace
}  // namespace tjr::validate
