#include "explain/trainer_explain.h"

#include <gtest/gtest.h>

#include "source/loader.h"
#include "testkit/fixtures.h"
#include "yaml/reader.h"

namespace tjr::explain {
namespace {

constexpr char kTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: llama
  namespace: ml
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: 2
    image: pytorch/pytorch:2.8.0
)";

// The explanation of the one TrainJob of `yaml` under `target`.
Explanation Explain(const std::string& yaml, const std::string& target) {
  auto documents = yaml::ReadStream(yaml, "repo.yaml");
  EXPECT_TRUE(documents.ok()) << documents.error().ToString();
  source::ManifestSet manifests = source::AdmitDocuments({source::ParsedFile{"repo.yaml", *documents}});
  pipeline::PipelineOptions options;
  options.target = target;
  options.threads = 1;
  options.keep_inputs = [](const source::Manifest& manifest) { return manifest.id.name == "llama"; };
  pipeline::PipelineResult ignored;
  Explanation out;
  pipeline::RenderManifests(manifests, options, [&](pipeline::TrainJobResult&& result) {
    if (result.inputs == nullptr) return;
    Result<Explanation> explained = ExplainTrainJob(*result.inputs, result.objects, target);
    EXPECT_TRUE(explained.ok()) << explained.error().ToString();
    if (explained.ok()) out = *std::move(explained);
  });
  return out;
}

const Field* JobSetField(const Explanation& explanation, std::string_view path) {
  for (const ObjectExplanation& object : explanation.objects) {
    if (object.object.Find("kind") != nullptr && object.object.Find("kind")->string_value() == "JobSet") {
      return object.Find(path);
    }
  }
  return nullptr;
}

constexpr char kImage[] = "spec.replicatedJobs[name=node].template.spec.template.spec.containers[name=node].image";

TEST(TrainerExplainTest, NamesTheSubjectAndTarget) {
  Explanation explanation = Explain(std::string(testkit::kTorchRuntime) + "---\n" + kTrainJob, "trainer-v2.3");
  EXPECT_EQ(explanation.subject, "TrainJob ml/llama");
  EXPECT_EQ(explanation.target, "trainer-v2.3");
  ASSERT_FALSE(explanation.objects.empty());
}

TEST(TrainerExplainTest, TheBuilderReplacesTheRuntimeImageFromSpecTrainer) {
  Explanation explanation = Explain(std::string(testkit::kTorchRuntime) + "---\n" + kTrainJob, "trainer-v2.3");
  const Field* image = JobSetField(explanation, kImage);
  ASSERT_NE(image, nullptr);
  ASSERT_EQ(image->chain.size(), 2u);
  EXPECT_EQ(explanation.layers[image->chain[0].layer].name, "runtime");
  EXPECT_EQ(image->chain[0].value.string_value(), "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime");
  EXPECT_EQ(explanation.layers[image->chain[1].layer].name, "builder");
  EXPECT_EQ(image->chain[1].value.string_value(), "pytorch/pytorch:2.8.0");
  EXPECT_EQ(image->chain[1].detail, "from spec.trainer.image");
  EXPECT_EQ(image->chain[1].location.ToString(), "repo.yaml:37:12");
}

TEST(TrainerExplainTest, LayersThatWroteNothingAreLeftOut) {
  Explanation explanation = Explain(std::string(testkit::kTorchRuntime) + "---\n" + kTrainJob, "trainer-v2.3");
  for (const Layer& layer : explanation.layers) {
    EXPECT_NE(layer.name, "plugin mpi");
    EXPECT_NE(layer.name, "plugin volcano");
  }
}

TEST(TrainerExplainTest, EveryStepNamesAKnownLayer) {
  for (const char* target : {"trainer-v2.1", "trainer-v2.2", "trainer-v2.3"}) {
    Explanation explanation = Explain(std::string(testkit::kTorchRuntime) + "---\n" + kTrainJob, target);
    ASSERT_FALSE(explanation.objects.empty()) << target;
    for (const ObjectExplanation& object : explanation.objects) {
      for (const Field& field : object.fields) {
        EXPECT_FALSE(field.chain.empty()) << target << " " << field.path;
        for (const Step& step : field.chain) EXPECT_LT(step.layer, explanation.layers.size());
      }
    }
  }
}

TEST(TrainerExplainTest, TorchEnvIsThePluginsFromNumNodes) {
  Explanation explanation = Explain(std::string(testkit::kTorchRuntime) + "---\n" + kTrainJob, "trainer-v2.3");
  const Field* nnodes = JobSetField(
      explanation, "spec.replicatedJobs[name=node].template.spec.template.spec.containers[name=node].env[name=PET_NNODES]"
                   ".value");
  ASSERT_NE(nnodes, nullptr);
  ASSERT_EQ(nnodes->chain.size(), 1u);
  EXPECT_EQ(explanation.layers[nnodes->chain[0].layer].name, "plugin torch");
  EXPECT_EQ(nnodes->chain[0].detail, "from spec.trainer.numNodes");
  EXPECT_EQ(nnodes->chain[0].location.ToString(), "repo.yaml:36:15");
}

}  // namespace
}  // namespace tjr::explain
