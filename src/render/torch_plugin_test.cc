// Torch plugin through the whole pipeline (spec §1.5.2, §1.7, §1.5.6).
#include <gtest/gtest.h>

#include "doc/path.h"
#include "render/render_test_util.h"

namespace tjr::render {
namespace {

using namespace testing;  // NOLINT

constexpr std::string_view kRuntime = R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-distributed}
spec:
  mlPolicy:
    numNodes: 1
    torch: {numProcPerNode: auto}
  template:
    spec:
      replicatedJobs:
      - name: node
        replicas: 1
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                containers:
                - name: node
                  image: pytorch
                  command: [torchrun, train.py]
                  env: [{name: RUNTIME, value: r}]
                  ports: [{containerPort: 8080}]
                  resources:
                    requests: {cpu: 1500m}
)";

std::string TrainJob(std::string_view trainer) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: tj, namespace: ns}\n"
         "spec:\n  runtimeRef: {name: torch-distributed, apiGroup: trainer.kubeflow.org, kind: "
         "ClusterTrainingRuntime}\n  suspend: false\n" +
         std::string(trainer);
}

// §1.5.2 env order: trainer.env, PET_NNODES, PET_NPROC_PER_NODE,
// PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT appended after the
// runtime's; §1.7 the unnamed port 29500 replaces the unnamed 8080.
TEST(TorchPlugin, TrainerValuesFromTrainJob) {
  RenderedObjects r = RenderYaml(TrainJob(R"(  trainer:
    numNodes: 2
    numProcPerNode: 3
    env: [{name: USER_ENV, value: u}, {name: RUNTIME, value: overridden}]
)"),
                                 kRuntime);
  const doc::Node& node = Container(r, 0, 0);
  ExpectValue(node.Find("env"), R"([
    {name: RUNTIME, value: overridden},
    {name: USER_ENV, value: u},
    {name: PET_NNODES, value: "2"},
    {name: PET_NPROC_PER_NODE, value: "3"},
    {name: PET_NODE_RANK, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}},
    {name: PET_MASTER_ADDR, value: tj-node-0-0.tj},
    {name: PET_MASTER_PORT, value: "29500"}])");
  ExpectValue(node.Find("ports"), "[{containerPort: 29500}]");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "parallelism"}), "2");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "completions"}), "2");
}

// §1.5.2: auto without GPUs = max(1, cpu rounded up): 1500m -> 2.
TEST(TorchPlugin, AutoUsesRuntimeCpuRoundedUp) {
  RenderedObjects r = RenderYaml(TrainJob("  trainer: {}\n"), kRuntime);
  ExpectValue(&doc::FindPath(Container(r, 0, 0), {"env"})->items()[2], "{name: PET_NPROC_PER_NODE, value: '2'}");
  ExpectValue(&doc::FindPath(Container(r, 0, 0), {"env"})->items()[1], "{name: PET_NNODES, value: '1'}");
}

// §1.5.2: resourcesPerNode wins over the runtime; with a GPU, auto stays
// literal; resources are replaced wholesale (§1.5.6 step 4).
TEST(TorchPlugin, AutoWithGpuStaysAutoAndResourcesAreReplaced) {
  RenderedObjects r = RenderYaml(TrainJob(R"(  trainer:
    resourcesPerNode:
      limits: {nvidia.com/gpu: 2}
)"),
                                 kRuntime);
  ExpectValue(&doc::FindPath(Container(r, 0, 0), {"env"})->items()[2], "{name: PET_NPROC_PER_NODE, value: auto}");
  ExpectValue(Container(r, 0, 0).Find("resources"), "{limits: {nvidia.com/gpu: '2'}}");
}

// §1.5.2: "cpu" uses CPU even with GPUs; requests.cpu of 0 falls back to limits.
TEST(TorchPlugin, CpuModeUsesLimitsWhenRequestIsZero) {
  RenderedObjects r = RenderYaml(TrainJob(R"(  trainer:
    numProcPerNode: cpu
    resourcesPerNode:
      requests: {cpu: 0, nvidia.com/gpu: 4}
      limits: {cpu: 3}
)"),
                                 kRuntime);
  ExpectValue(&doc::FindPath(Container(r, 0, 0), {"env"})->items()[2], "{name: PET_NPROC_PER_NODE, value: '3'}");
}

// §1.5.2: without spec.trainer nothing is added, not even the port.
TEST(TorchPlugin, NoTrainerNoPetEnvNoPort) {
  RenderedObjects r = RenderYaml(TrainJob(""), kRuntime);
  ExpectValue(Container(r, 0, 0).Find("env"), "[{name: RUNTIME, value: r}]");
  ExpectValue(Container(r, 0, 0).Find("ports"), "[{containerPort: 8080}]");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "parallelism"}), "1");
}

constexpr std::string_view kTuneRuntime = R"(
metadata: {name: torchtune-llama3.2-1b}
spec:
  mlPolicy:
    numNodes: 1
    torch: {numProcPerNode: auto}
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
                containers:
                - name: node
                  image: torchtune
                  command: [tune, run, full_finetune_distributed, --config, llama3_2/1B_full,
                            output_dir=/workspace/output, tokenizer.path=/workspace/model/tok.model,
                            checkpointer.checkpoint_dir=/workspace/model, other=1]
                  resources:
                    limits: {nvidia.com/gpu: 2}
)";

std::string TuneJob(std::string_view extra) {
  return "metadata: {name: tj}\nspec:\n  runtimeRef: {name: torchtune-llama3.2-1b}\n  trainer:\n"
         "    command: [tune, run]\n" +
         std::string(extra);
}

// §1.5.2 TorchTune: auto + 2 GPUs => rdzv arg; LoRA args => distributed
// LoRA recipe; immutable configs copied from the runtime command; no
// PET_MASTER_*; the builder copies the rewritten command.
TEST(TorchPlugin, TorchTuneLoraCommandRewrite) {
  RenderedObjects r = RenderYaml(TuneJob("    args: [\"model.lora_attn_modules=[q_proj]\"]\n"), kTuneRuntime);
  ExpectValue(Container(r, 0, 0).Find("command"), R"([tune, run, "--rdzv_endpoint=tj-node-0-0.tj:29500",
      lora_finetune_distributed, --config, llama3_2/1B_lora, output_dir=/workspace/output,
      tokenizer.path=/workspace/model/tok.model, checkpointer.checkpoint_dir=/workspace/model])");
  ExpectValue(Container(r, 0, 0).Find("args"), "[\"model.lora_attn_modules=[q_proj]\"]");
  const doc::Node& env = *Container(r, 0, 0).Find("env");
  ASSERT_EQ(env.size(), 3u);
  EXPECT_EQ(doc::StringAtPath(env[2], {"name"}), "PET_NODE_RANK");
}

// Single device (1 GPU), QLoRA, and multi-node full finetune.
TEST(TorchPlugin, TorchTuneRecipes) {
  RenderedObjects r = RenderYaml(TuneJob(R"(    args: [model.quantize_base=True]
    resourcesPerNode: {limits: {nvidia.com/gpu: 1}}
)"),
                                 kTuneRuntime);
  const doc::Node* command = Container(r, 0, 0).Find("command");
  ASSERT_NE(command, nullptr);
  EXPECT_EQ((*command)[2].string_value(), "lora_finetune_single_device");
  EXPECT_EQ((*command)[4].string_value(), "llama3_2/1B_qlora_single_device");

  r = RenderYaml(TuneJob("    numNodes: 2\n    args: [model.quantize_base=True, model.use_dora=True]\n"), kTuneRuntime);
  command = Container(r, 0, 0).Find("command");
  ASSERT_NE(command, nullptr);
  EXPECT_EQ((*command)[2].string_value(), "--rdzv_endpoint=tj-node-0-0.tj:29500");
  EXPECT_EQ((*command)[3].string_value(), "full_finetune_distributed");
  EXPECT_EQ((*command)[5].string_value(), "llama3_2/1B_full_multinode");
}

}  // namespace
}  // namespace tjr::render
