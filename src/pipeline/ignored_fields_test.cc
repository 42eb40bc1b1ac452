#include "pipeline/ignored_fields.h"

#include <gtest/gtest.h>

#include "doc/path.h"
#include "pipeline/pipeline.h"
#include "pipeline/test_util.h"

namespace tjr::pipeline {
namespace {

using testing::Lines;
using testing::Manifests;

// `labels` goes under the node job's template metadata ("" leaves it
// unlabelled), `policy` under mlPolicy.
std::string Runtime(std::string_view policy, std::string_view labels, std::string_view jobs = "",
                    std::string_view nodes = "1") {
  return R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: rt
spec:
  mlPolicy:
    numNodes: )" + std::string(nodes) + "\n" + std::string(policy) +
         R"(  template:
    spec:
      replicatedJobs:
)" + std::string(jobs) +
         R"(        - name: node
          template:
            metadata:
              labels: {)" +
         std::string(labels) + R"(}
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: busybox
)";
}

std::string TrainJob(std::string_view spec) {
  return "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job, namespace: default}\n"
         "spec:\n  runtimeRef: {name: rt}\n" +
         std::string(spec);
}

constexpr char kTrainerLabel[] = "trainer.kubeflow.org/trainjob-ancestor-step: trainer";
constexpr char kTrainerFields[] =
    "  trainer:\n    image: mine\n    command: [a]\n    args: [b]\n    numNodes: 2\n"
    "    resourcesPerNode: {limits: {cpu: 1}}\n    env: [{name: A, value: b}]\n";

// The first container of the rendered JobSet's first job.
const doc::Node& NodeContainer(const std::vector<doc::Node>& objects) {
  for (const doc::Node& object : objects) {
    if (doc::StringAt(&object, "kind") != "JobSet") continue;
    const doc::Node* job = &doc::Items(doc::FindPath(&object, {"spec", "replicatedJobs"})).front();
    return doc::Items(doc::FindPath(job, {"template", "spec", "template", "spec", "containers"})).front();
  }
  ADD_FAILURE() << "no JobSet";
  return objects.front();
}

std::string Rules(const Diagnostics& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.rule + " ";
  return out;
}

TEST(IgnoredTrainerFields, EveryFieldOfSpecTrainerIsDroppedWithoutATrainerJob) {
  for (const char* target : {"trainer-v2.1", "trainer-v2.2", "trainer-v2.3"}) {
    PipelineOptions options;
    options.target = target;
    options.threads = 1;
    PipelineResult result = RenderManifests(Manifests(Runtime("", "") + TrainJob(kTrainerFields)), options);
    const std::string lines = Lines(result.diagnostics);
    EXPECT_EQ(Rules(result.diagnostics),
              "trainer-fields-ignored trainer-fields-ignored trainer-fields-ignored trainer-fields-ignored "
              "trainer-fields-ignored trainer-fields-ignored ")
        << target << "\n" << lines;
    EXPECT_NE(lines.find("repo.yaml:28:12: warning: [trainer-fields-ignored] spec.trainer.image is ignored: no "
                         "replicatedJob of ClusterTrainingRuntime rt carries the label "
                         "trainer.kubeflow.org/trainjob-ancestor-step: trainer"),
              std::string::npos)
        << lines;
    EXPECT_NE(lines.find("spec.trainer.env is ignored"), std::string::npos) << lines;
    // The controller does drop them: the runtime's container is unchanged.
    ASSERT_FALSE(result.objects.empty());
    EXPECT_EQ(doc::StringAt(&NodeContainer(result.objects), "image"), "busybox") << target;
  }
  // With the label nothing is said.
  PipelineResult labelled = RenderManifests(Manifests(Runtime("", kTrainerLabel) + TrainJob(kTrainerFields)), {});
  EXPECT_EQ(Rules(labelled.diagnostics), "") << Lines(labelled.diagnostics);
}

TEST(IgnoredTrainerFields, MpiStillCountsAndFeedsTheNodeJob) {
  // mpi.go counts the PodSet named node; with runLauncherAsNode the builder
  // gives env and resources to the node job too.
  const std::string runtime =
      Runtime("    mpi: {runLauncherAsNode: true}\n", "",
              "        - name: launcher\n          template:\n            spec:\n              template:\n"
              "                spec:\n                  containers: [{name: node, image: busybox}]\n");
  PipelineResult result = RenderManifests(Manifests(runtime + TrainJob(kTrainerFields)), {});
  const std::string lines = Lines(result.diagnostics);
  EXPECT_NE(lines.find("spec.trainer.image is ignored"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("spec.trainer.numNodes is ignored"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("spec.trainer.env is ignored"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("spec.trainer.resourcesPerNode is ignored"), std::string::npos) << lines;
}

TEST(TorchEnvNotInjected, ATorchRuntimeWithoutSpecTrainerGetsNoPetEnvironment) {
  for (const char* target : {"trainer-v2.1", "trainer-v2.2", "trainer-v2.3"}) {
    PipelineOptions options;
    options.target = target;
    const std::string runtime = Runtime("    torch: {}\n", kTrainerLabel, "", "2");
    PipelineResult bare = RenderManifests(Manifests(runtime + TrainJob("")), options);
    EXPECT_EQ(Rules(bare.diagnostics), "torch-env-not-injected ") << target << Lines(bare.diagnostics);
    EXPECT_NE(Lines(bare.diagnostics).find("repo.yaml:27:3: warning: [torch-env-not-injected] the TrainJob has no "
                                           "spec.trainer, so the Torch plugin of ClusterTrainingRuntime rt injects no "
                                           "PET_* environment (PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, "
                                           "PET_MASTER_PORT) and no container port into the trainer's node container: "
                                           "torchrun runs each of the 2 nodes on its own"),
              std::string::npos)
        << Lines(bare.diagnostics);
    // The renderer agrees: no PET_ variable, no port.
    ASSERT_FALSE(bare.objects.empty()) << target;
    EXPECT_EQ(doc::At(&NodeContainer(bare.objects), "env"), nullptr) << target;
    EXPECT_EQ(doc::At(&NodeContainer(bare.objects), "ports"), nullptr) << target;
    PipelineResult with = RenderManifests(Manifests(runtime + TrainJob("  trainer: {}\n")), options);
    EXPECT_EQ(Rules(with.diagnostics), "") << target << Lines(with.diagnostics);
    ASSERT_FALSE(with.objects.empty()) << target;
    EXPECT_NE(doc::At(&NodeContainer(with.objects), "env"), nullptr) << target;
  }
  // On one node torchrun's defaults still start it: nothing is said.
  PipelineResult one = RenderManifests(Manifests(Runtime("    torch: {}\n", kTrainerLabel) + TrainJob("")), {});
  EXPECT_EQ(Rules(one.diagnostics), "") << Lines(one.diagnostics);
  // Unless the runtime asks for more processes than torchrun's default one:
  // v2.1 reads mlPolicy.torch.numProcPerNode (torch.go:108); later CRDs have
  // no such field, so the API server drops it and nothing is asked.
  PipelineOptions v21;
  v21.target = "trainer-v2.1";
  PipelineResult procs =
      RenderManifests(Manifests(Runtime("    torch: {numProcPerNode: 4}\n", kTrainerLabel) + TrainJob("")), v21);
  EXPECT_EQ(Rules(procs.diagnostics), "torch-env-not-injected ") << Lines(procs.diagnostics);
  EXPECT_NE(Lines(procs.diagnostics).find("torchrun starts 1 process per node, not the runtime's 4"),
            std::string::npos)
      << Lines(procs.diagnostics);
  PipelineResult auto_procs =
      RenderManifests(Manifests(Runtime("    torch: {numProcPerNode: auto}\n", kTrainerLabel) + TrainJob("")), v21);
  EXPECT_EQ(Rules(auto_procs.diagnostics), "") << Lines(auto_procs.diagnostics);
  for (const char* target : {"trainer-v2.2", "trainer-v2.3"}) {
    PipelineOptions options;
    options.target = target;
    PipelineResult pruned = RenderManifests(
        Manifests(Runtime("    torch: {numProcPerNode: 4}\n", kTrainerLabel) + TrainJob("")), options);
    EXPECT_EQ(Rules(pruned.diagnostics), "field-pruned ") << target << Lines(pruned.diagnostics);
  }
}

TEST(MpiNodeMissing, NoNodeJobAndNoNodeContainerAreSaidAtTheRuntime) {
  const std::string runtime = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: mpi
spec:
  mlPolicy:
    numNodes: 1
    mpi: {}
  template:
    spec:
      replicatedJobs:
        - name: launcher
          template:
            spec:
              template:
                spec:
                  containers: [{name: mpirun, image: mpi}]
        - name: worker
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  containers: [{name: node, image: mpi}]
)";
  PipelineResult result = RenderManifests(Manifests(runtime), {});
  const std::string lines = Lines(result.diagnostics);
  EXPECT_EQ(Rules(result.diagnostics), "mpi-node-missing mpi-node-missing ") << lines;
  EXPECT_NE(lines.find("warning: [mpi-node-missing] MPI ClusterTrainingRuntime mpi has no replicatedJob named node: "
                       "the MPI plugin writes the hostfile from that job alone, so mpirun gets an empty hostfile"),
            std::string::npos)
      << lines;
  EXPECT_NE(lines.find("repo.yaml:12:11: warning: [mpi-node-missing] job launcher of MPI ClusterTrainingRuntime mpi "
                       "has no container named node: the MPI plugin mounts the SSH keys and the hostfile only"),
            std::string::npos)
      << lines;
  // The sample MPI runtime is wired as the plugin wants.
  EXPECT_TRUE(CheckMpiRuntime(Manifests(testkit::kTorchRuntime).manifests[0].object).empty());
}

}  // namespace
}  // namespace tjr::pipeline
