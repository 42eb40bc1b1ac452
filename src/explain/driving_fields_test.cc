#include "explain/driving_fields.h"

#include <gtest/gtest.h>

namespace tjr::explain {
namespace {

std::vector<std::string> Texts(std::string_view layer, std::string_view path) {
  std::vector<std::string> out;
  for (const DrivingField& field : DrivingFieldsOf(layer, path)) out.push_back(field.text);
  return out;
}

TEST(DrivingFieldsTest, TorchEnvComesFromTheTrainJobThenTheRuntime) {
  EXPECT_EQ(Texts("plugin torch", "spec.x.containers[name=node].env[name=PET_NNODES].value"),
            (std::vector<std::string>{"spec.trainer.numNodes", "the runtime's spec.mlPolicy.numNodes",
                                      "the runtime's spec.mlPolicy.torch"}));
}

TEST(DrivingFieldsTest, PodCountsAreNumNodesWhicheverLayerWritesThem) {
  for (const char* layer : {"builder", "plugin torch", "plugin mpi"}) {
    const std::vector<std::string> texts = Texts(layer, "spec.replicatedJobs[name=node].template.spec.parallelism");
    ASSERT_GE(texts.size(), 2u) << layer;
    EXPECT_EQ(texts[0], "spec.trainer.numNodes") << layer;
    EXPECT_EQ(texts[1], "the runtime's spec.mlPolicy.numNodes") << layer;
  }
}

TEST(DrivingFieldsTest, RuntimeFieldsAreMarkedAndPathsSplitIntoKeys) {
  const std::vector<DrivingField> fields = DrivingFieldsOf("plugin volcano", "spec.x");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_TRUE(fields[0].in_runtime);
  EXPECT_EQ(fields[0].path, (std::vector<std::string_view>{"spec", "podGroupPolicy", "volcano"}));
}

TEST(DrivingFieldsTest, AnUnknownLayerHasNone) { EXPECT_TRUE(DrivingFieldsOf("plugin nobody", "spec.x").empty()); }

}  // namespace
}  // namespace tjr::explain
