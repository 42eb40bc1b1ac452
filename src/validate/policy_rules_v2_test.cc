// ML-policy plugin rules of Trainer v2.2.0/v2.3.0 (runtimepatches spec
// §3.5, §5.13-§5.14; plugins/*/ Validate at v2.3.0).
#include <gtest/gtest.h>

#include "validate/test_util.h"
#include "validate/validate.h"
#include "validate/test_options.h"

namespace tjr::validate {
namespace {

using testing::Messages;
using testing::Yaml;

std::string Runtime(std::string_view ml_policy, std::string_view node_pod = "containers: [{name: node, image: x}]") {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: torchtune-llama3.2-1b}\n"
         "spec:\n  mlPolicy: " + std::string(ml_policy) + "\n  template:\n    spec:\n      replicatedJobs:\n"
         "      - name: node\n        template:\n          metadata:\n            labels: "
         "{trainer.kubeflow.org/trainjob-ancestor-step: trainer}\n          spec:\n            template:\n"
         "              spec: {" + std::string(node_pod) + "}\n";
}

std::vector<std::string> Check(std::string_view ml_policy, std::string_view trainer,
                               trainer::TrainerVersion version = trainer::TrainerVersion::kV2_3) {
  const doc::Node runtime = Yaml(Runtime(ml_policy));
  const doc::Node trainjob = Yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job, namespace: default}\n"
      "spec:\n  runtimeRef: {name: torchtune-llama3.2-1b, apiGroup: trainer.kubeflow.org, kind: "
      "ClusterTrainingRuntime}\n  trainer: " + std::string(trainer) + "\n");
  ValidateOptions options = V21Options();
  options.version = version;
  return Messages(ValidateTrainJobWebhook(trainjob, runtime, options));
}

TEST(PolicyRulesV2, TorchReservedEnvWithoutNumProcPerNode) {
  // v2.1.0 skipped the whole check without numProcPerNode; v2.2.0+ does not.
  EXPECT_EQ(Check("{torch: {}}", "{env: [{name: PET_NNODES, value: '2'}]}"),
            std::vector<std::string>{"spec.trainer.env: Invalid value: [{\"name\":\"PET_NNODES\",\"value\":\"2\"}]: must "
                                     "not have reserved envs, invalid envs configured: [PET_NNODES]"});
}

TEST(PolicyRulesV2, TorchTuneImmutableArgsAndMultiNodeLoRA) {
  const std::vector<std::string> found =
      Check("{torch: {}}", "{command: [tune, run], numNodes: 2, args: ['model.lora_attn_modules=[q]', 'output_dir=/x']}");
  EXPECT_EQ(found, (std::vector<std::string>{
                       "spec.trainer.numNodes: Invalid value: 2: must be 1 for llama3_2/1B model",
                       "spec.trainer.numNodes: Invalid value: 2: LoRA fine-tuning is not supported for multi-node "
                       "training in TorchTune",
                       "spec.trainer.args[1]: Invalid value: \"output_dir=/x\": must not set immutable config "
                       "\"output_dir\" in trainer args; it is managed by the runtime"}));
  // v2.2.0 has neither of the two later checks.
  EXPECT_EQ(Check("{torch: {}}", "{command: [tune, run], numNodes: 2, args: ['model.lora_attn_modules=[q]', "
                                 "'output_dir=/x']}",
                  trainer::TrainerVersion::kV2_2),
            std::vector<std::string>{"spec.trainer.numNodes: Invalid value: 2: must be 1 for llama3_2/1B model"});
}

TEST(PolicyRulesV2, TorchEnvInjectionTargetMustExist) {
  EXPECT_EQ(Check("{torch: {envInjection: {targets: [{jobName: node, containerNames: [node, missing]}]}}}", "{}"),
            std::vector<std::string>{"spec.runtimeRef: Invalid value: {\"jobName\":\"node\",\"containerNames\":"
                                     "[\"node\",\"missing\"]}: envInjection target podSet \"node\" container "
                                     "\"missing\" not found in runtime template"});
}

TEST(PolicyRulesV2, XGBoostAndMpiReservedEnv) {
  EXPECT_EQ(Check("{xgboost: {}}", "{env: [{name: A, value: a}, {name: DMLC_TASK_ID, value: '0'}]}"),
            std::vector<std::string>{"spec.trainer.env[1]: Forbidden: DMLC_TASK_ID is reserved for the XGBoost runtime"});
  EXPECT_EQ(Check("{mpi: {runLauncherAsNode: false}}", "{env: [{name: OMPI_MCA_plm_rsh_args, value: x}]}"),
            std::vector<std::string>{"spec.trainer.env: Invalid value: [{\"name\":\"OMPI_MCA_plm_rsh_args\",\"value\":"
                                     "\"x\"}]: must not have reserved envs, invalid envs configured: "
                                     "[OMPI_MCA_plm_rsh_args]"});
}

// flux_test.go TestValidate (v2.3.0); the v2.2.0 check reads the runtime only.
TEST(PolicyRulesV2, FluxNumProcPerNode) {
  EXPECT_EQ(Check("{flux: {numProcPerNode: 1}}", "{numProcPerNode: 1}"), std::vector<std::string>{});
  const std::vector<std::string> want = {
      "spec.trainer.numProcPerNode: Invalid value: 0: must be greater than or equal to 1 for Flux TrainJob"};
  EXPECT_EQ(Check("{flux: {numProcPerNode: 0}}", "{}"), want);
  EXPECT_EQ(Check("{flux: {numProcPerNode: 1}}", "{numProcPerNode: 0}"), want);
  EXPECT_EQ(Check("{flux: {numProcPerNode: 1}}", "{numProcPerNode: 0}", trainer::TrainerVersion::kV2_2),
            std::vector<std::string>{});
  EXPECT_EQ(Check("{flux: {numProcPerNode: 0}}", "{numProcPerNode: 2}", trainer::TrainerVersion::kV2_2), want);
  // A valid TrainJob value hides an invalid runtime one from v2.3.0.
  EXPECT_EQ(Check("{flux: {numProcPerNode: 0}}", "{numProcPerNode: 2}"), std::vector<std::string>{});
}

TEST(PolicyRulesV2, FluxReservedInstaller) {
  const doc::Node runtime =
      Yaml(Runtime("{flux: {numProcPerNode: 1}}",
                   "initContainers: [{name: flux-installer, image: \"y\"}], containers: [{name: node, image: x}]"));
  const doc::Node trainjob = Yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job, namespace: default}\n"
      "spec:\n  runtimeRef: {name: torchtune-llama3.2-1b}\n  trainer: {numNodes: 1}\n");
  for (trainer::TrainerVersion version : {trainer::TrainerVersion::kV2_2, trainer::TrainerVersion::kV2_3}) {
    ValidateOptions options = V21Options();
    options.version = version;
    EXPECT_EQ(Messages(ValidateTrainJobWebhook(trainjob, runtime, options)),
              std::vector<std::string>{"spec.trainer.initContainers: Invalid value: \"flux-installer\": InitContainer "
                                       "'flux-installer' is reserved"});
  }
}

}  // namespace
}  // namespace tjr::validate
