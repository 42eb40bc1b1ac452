// Torch, TorchTune, MPI and Volcano plugin rules (reference §3.3).
#include <gtest/gtest.h>

#include "validate/test_util.h"
#include "validate/validate.h"
#include "validate/test_options.h"

namespace tjr::validate {
namespace {

using testing::Messages;
using testing::Yaml;

std::string Runtime(std::string_view policies, std::string_view pod_extra = "") {
  return R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: rt}
spec:
)" + std::string(policies) + R"(
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
)" + std::string(pod_extra) + R"(
                containers: [{name: node, image: pytorch}]
)";
}

std::vector<std::string> Check(std::string_view runtime_name, std::string_view spec_extra, const std::string& runtime,
                               const ValidateOptions& options = V21Options()) {
  const doc::Node trainjob = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: )" + std::string(runtime_name) + R"(, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}
  suspend: false
  managedBy: trainer.kubeflow.org/trainjob-controller
)" + std::string(spec_extra));
  const doc::Node runtime_node = Yaml(runtime);
  return Messages(ValidateTrainJob(trainjob, &runtime_node, options));
}

const std::string kTorch = Runtime("  mlPolicy: {numNodes: 1, torch: {numProcPerNode: auto}}");

TEST(TorchPlugin, NumProcPerNodeStringMustBeKnown) {
  EXPECT_EQ(Check("rt", "  trainer: {numProcPerNode: many}\n", kTorch),
            std::vector<std::string>{
                R"(spec.trainer.numProcPerNode: Invalid value: "many": must have an int value or [auto cpu gpu])"});
  EXPECT_TRUE(Check("rt", "  trainer: {numProcPerNode: gpu}\n", kTorch).empty());
  EXPECT_TRUE(Check("rt", "  trainer: {numProcPerNode: 4}\n", kTorch).empty());
}

TEST(TorchPlugin, ReservedEnvsOnlyWhenNumProcPerNodeIsSet) {
  const std::string env = "    env: [{name: PET_NNODES, value: '2'}, {name: X}, {name: PET_MASTER_ADDR, value: a}]\n";
  EXPECT_EQ(Check("rt", "  trainer:\n    numProcPerNode: auto\n" + env, kTorch),
            std::vector<std::string>{
                R"(spec.trainer.env: Invalid value: [{"name":"PET_NNODES","value":"2"},{"name":"X"},)"
                R"({"name":"PET_MASTER_ADDR","value":"a"}]: must not have reserved envs, invalid envs configured: )"
                "[PET_MASTER_ADDR PET_NNODES]"});
  EXPECT_TRUE(Check("rt", "  trainer:\n" + env, kTorch).empty());
}

TEST(TorchPlugin, NotTorchRuntimeSkipsTorchRules) {
  EXPECT_TRUE(Check("rt", "  trainer: {numProcPerNode: many}\n", Runtime("  mlPolicy: {numNodes: 1}")).empty());
}

constexpr std::string_view kTune = "  trainer:\n    command: [tune, run]\n";

TEST(TorchTune, UnsupportedModel) {
  EXPECT_EQ(Check("torch-distributed", std::string(kTune) + "    numNodes: 1\n    numProcPerNode: auto\n", kTorch),
            std::vector<std::string>{R"(spec.runtimeRef.name: Invalid value: "torch-distributed": must have a )"
                                     "supported pretrained model, invalid model configured: "});
}

TEST(TorchTune, MultiNodeOnlyFor70B) {
  EXPECT_EQ(Check("torchtune-llama3.2-1b", std::string(kTune) + "    numNodes: 2\n    numProcPerNode: auto\n", kTorch),
            std::vector<std::string>{"spec.trainer.numNodes: Invalid value: 2: must be 1 for llama3_2/1B model"});
  EXPECT_TRUE(
      Check("torchtune-llama3.3-70b", std::string(kTune) + "    numNodes: 2\n    numProcPerNode: auto\n", kTorch)
          .empty());
}

TEST(TorchTune, QLoRANotForQwen) {
  EXPECT_EQ(Check("torchtune-qwen2.5-1.5b",
                  std::string(kTune) + "    args: [model.quantize_base=True]\n    numNodes: 1\n    numProcPerNode: auto\n",
                  kTorch),
            std::vector<std::string>{
                R"(spec.runtimeRef.name: Invalid value: "torchtune-qwen2.5-1.5b": QLoRA is not supported for )"
                "qwen2_5/1.5B model"});
}

TEST(TorchTune, QLoRAForLlama32NeedsOneDevice) {
  const std::string spec = std::string(kTune) +
                           "    args: [model.quantize_base=True]\n    numNodes: 1\n    numProcPerNode: 2\n"
                           "    resourcesPerNode: {limits: {nvidia.com/gpu: 2}}\n";
  EXPECT_EQ(Check("torchtune-llama3.2-1b", spec, kTorch),
            (std::vector<std::string>{
                "spec.trainer.numProcPerNode: Invalid value: 2: must be auto or 1 for llama3_2/1B model when using QLoRA",
                R"(spec.trainer.resourcesPerNode: Invalid value: {"limits":{"nvidia.com/gpu":"2"}}: must have gpu )"
                "resource with value 1 for llama3_2/1B model when using QLoRA"}));
  // One GPU (from the runtime's trainer container) makes it single-device.
  const std::string one_gpu = Runtime("  mlPolicy: {numNodes: 1, torch: {numProcPerNode: auto}}");
  std::string with_gpu = one_gpu;
  with_gpu.replace(with_gpu.find("{name: node, image: pytorch}"), 28,
                   "{name: node, image: pytorch, resources: {limits: {nvidia.com/gpu: 1}}}");
  EXPECT_TRUE(Check("torchtune-llama3.2-1b",
                    std::string(kTune) + "    args: [model.quantize_base=True]\n    numNodes: 1\n    numProcPerNode: auto\n",
                    with_gpu)
                  .empty());
  // use_dora turns QLoRA off.
  EXPECT_TRUE(Check("torchtune-llama3.2-1b",
                    std::string(kTune) +
                        "    args: [model.use_dora=True, model.quantize_base=True]\n    numNodes: 1\n    numProcPerNode: 2\n",
                    kTorch)
                  .empty());
}

TEST(TorchTune, NilNumNodesPanicsTheWebhook) {
  EXPECT_EQ(Check("torchtune-llama3.2-1b", std::string(kTune) + "    numProcPerNode: auto\n", kTorch),
            std::vector<std::string>{"panic: runtime error: invalid memory address or nil pointer dereference [recovered]"});
}

const std::string kMpi = Runtime("  mlPolicy: {numNodes: 1, mpi: {numProcPerNode: 1, mpiImplementation: OpenMPI, "
                                 "sshAuthMountPath: /root/.ssh, runLauncherAsNode: true}}");

TEST(MpiPlugin, NumProcPerNodeMustBeInt) {
  EXPECT_EQ(Check("rt", "  trainer: {numProcPerNode: auto}\n", kMpi),
            std::vector<std::string>{
                R"(spec.trainer.numProcPerNode: Invalid value: "auto": must have an int value for MPI TrainJob)"});
}

TEST(MpiPlugin, MultiNodeLauncherAsNodeNeedsBothJobs) {
  EXPECT_EQ(Check("rt", "  trainer: {numNodes: 2}\n", kMpi),
            std::vector<std::string>{"spec.trainer.numNodes: Invalid value: 2: must have 1 when MPI trainingRuntime "
                                     "with enabled runLauncherAsNode does not have either launcher and node"});
  EXPECT_TRUE(Check("rt", "  trainer: {numNodes: 1}\n", kMpi).empty());
}

const std::string kVolcano = Runtime("  podGroupPolicy: {volcano: {}}", "                priorityClassName: high\n");

TEST(VolcanoPlugin, EmptyQueueName) {
  EXPECT_EQ(Check("rt", "  annotations: {scheduling.volcano.sh/queue-name: ''}\n", kVolcano),
            std::vector<std::string>{R"(spec.annotations[scheduling.volcano.sh/queue-name]: Invalid value: "": )"
                                     "Volcano queue name must not be empty"});
}

TEST(VolcanoPlugin, UnknownPriorityClassWhenTheClusterIsKnown) {
  EXPECT_TRUE(Check("rt", "", kVolcano).empty());  // no PriorityClass list given
  ValidateOptions options = V21Options();
  options.priority_classes = std::vector<std::string>{"low"};
  EXPECT_EQ(Check("rt", "", kVolcano, options),
            std::vector<std::string>{R"(spec.templateSpec.priorityClassName: Invalid value: "high": PriorityClass )"
                                     R"("high" doesn't exist: PriorityClass.scheduling.k8s.io "high" not found)"});
  options.priority_classes = std::vector<std::string>{"high"};
  EXPECT_TRUE(Check("rt", "", kVolcano, options).empty());
}

}  // namespace
}  // namespace tjr::validate
