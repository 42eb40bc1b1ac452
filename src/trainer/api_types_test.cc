// Each release's schema holds its own API types beside the Kubernetes and
// JobSet types it is built against.
#include "trainer/api_types.h"

#include <gtest/gtest.h>

namespace tjr::trainer {
namespace {

const schema::Schema& SchemaOf(TrainerVersion version) {
  Result<const schema::Schema*> schema = ReleaseSchema(version);
  EXPECT_TRUE(schema.ok()) << schema.error().ToString();
  return **schema;
}

TEST(ReleaseSchema, OneSchemaPerReleaseBuiltOnce) {
  for (std::size_t i = 0; i < kReleaseCount; ++i) {
    const auto version = static_cast<TrainerVersion>(i);
    const schema::Schema& schema = SchemaOf(version);
    EXPECT_EQ(&schema, &SchemaOf(version));
    EXPECT_NE(schema.FindType("k8s.io/api/core/v1.PodSpec"), nullptr);
    EXPECT_NE(schema.FindType("sigs.k8s.io/jobset/api/jobset/v1alpha2.JobSetSpec"), nullptr);
    EXPECT_NE(schema.ForKind("trainer.kubeflow.org/v1alpha1", "TrainJob"), nullptr);
  }
}

TEST(FindApiType, ThePatchTypesFollowTheRelease) {
  for (std::size_t i = 0; i < kReleaseCount; ++i) {
    const auto version = static_cast<TrainerVersion>(i);
    const schema::Schema& schema = SchemaOf(version);
    const bool runtime_patches = ReleaseOf(version).runtime_patches;
    EXPECT_EQ(FindApiType(schema, "RuntimePatch") != nullptr, runtime_patches) << ReleaseOf(version).tag;
    EXPECT_EQ(FindApiType(schema, "PodTemplateOverride") == nullptr, runtime_patches) << ReleaseOf(version).tag;
  }
  // ContainerPatch (v2.3.0 trainjob_types.go:466-496): its fields in Go order.
  const schema::Type* container = FindApiType(SchemaOf(TrainerVersion::kV2_3), "ContainerPatch");
  ASSERT_NE(container, nullptr);
  std::string names;
  for (const schema::Field& field : container->fields) names += field.json_name + ",";
  EXPECT_EQ(names, "name,env,volumeMounts,securityContext,");
  EXPECT_EQ(FindApiType(SchemaOf(TrainerVersion::kV2_3), "NoSuchType"), nullptr);
}

}  // namespace
}  // namespace tjr::trainer
