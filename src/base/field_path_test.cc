#include "base/field_path.h"

#include <gtest/gtest.h>

namespace tjr {
namespace {

TEST(FieldPathTest, PrintsUpstreamAndKeyedForms) {
  FieldPath p = FieldPath().Field("spec").Field("replicatedJobs").Keyed(1, "name", "node")
                    .Field("template").Field("spec");
  EXPECT_EQ(p.Upstream(), "spec.replicatedJobs[1].template.spec");
  EXPECT_EQ(p.Keyed(), "spec.replicatedJobs[name=node].template.spec");
}

TEST(FieldPathTest, UnkeyedIndexPrintsTheSameInBothForms) {
  FieldPath p = FieldPath().Field("spec").Field("podTemplateOverrides").Index(0)
                    .Field("targetJobs").Index(0).Field("name");
  EXPECT_EQ(p.Upstream(), "spec.podTemplateOverrides[0].targetJobs[0].name");
  EXPECT_EQ(p.Keyed(), p.Upstream());
}

TEST(FieldPathTest, BracketsKeysWithDots) {
  FieldPath p = FieldPath().Field("metadata").Field("labels").Field("app.kubernetes.io/name");
  EXPECT_EQ(p.Upstream(), "metadata.labels[app.kubernetes.io/name]");
  EXPECT_TRUE(FieldPath().empty());
  EXPECT_FALSE(p.empty());
  // Extending shares the prefix and leaves the original alone.
  FieldPath longer = p.Field("x");
  EXPECT_EQ(p.Upstream(), "metadata.labels[app.kubernetes.io/name]");
  EXPECT_EQ(longer.Upstream(), "metadata.labels[app.kubernetes.io/name].x");
  EXPECT_EQ(longer.steps().size(), 4u);
  EXPECT_EQ(longer.steps().front().field, "metadata");
  EXPECT_EQ(FieldPath().Upstream(), "");
}

// A frame chain builds the same path as extending a FieldPath step by step.
TEST(PathFrame, BuildsThePathOfTheChain) {
  const PathFrame root;
  EXPECT_TRUE(root.Build().empty());
  const PathFrame spec = root.Field("spec");
  const PathFrame jobs = spec.Field("replicatedJobs");
  const PathFrame second = jobs.Index(1);
  EXPECT_EQ(second.Field("name").Build().Upstream(), "spec.replicatedJobs[1].name");
  EXPECT_EQ(jobs.Build().Upstream(), "spec.replicatedJobs");
}

}  // namespace
}  // namespace tjr
