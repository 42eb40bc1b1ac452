// What a TrainJob's typed patch fields hold, read off the release's API types.
#include "render/stored_field.h"

#include <gtest/gtest.h>

#include "render/go_types.h"
#include "render/test_util.h"

namespace tjr::render {
namespace {

using testing::ToYaml;
using testing::Yaml;

const GoTypes& Types(trainer::TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  EXPECT_TRUE(types.ok());
  return **types;
}

TEST(StoredValue, PointersKeepEmptyValuesOmitEmptyDropsThem) {
  const schema::Type& spec = *Types(trainer::TrainerVersion::kV2_1).pod_template_spec_override;
  Result<doc::Node> out =
      StoredValue(Yaml("serviceAccountName: ''\naffinity: {}\nnodeSelector: {}\ntolerations: []\nvolumes: null\n"), spec);
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(ToYaml(*out), "affinity: {}\nserviceAccountName: \"\"\n");
  // Go field order (ToYaml sorts).
  ASSERT_EQ(out->fields().size(), 2u);
  EXPECT_EQ(out->fields()[0].key, "serviceAccountName");
}

TEST(StoredValue, KeysThatAreNotExactlyAFieldNameArePruned) {
  // The API server prunes `Image` and `ServiceAccountName`; encoding/json
  // alone would have matched them case-insensitively.
  const schema::Type& spec = *Types(trainer::TrainerVersion::kV2_1).pod_template_spec_override;
  Result<doc::Node> out = StoredValue(
      Yaml("ServiceAccountName: sa\ncontainers: [{name: c, Image: x, env: [{Name: A, name: B, value: v}]}]\n"), spec);
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(ToYaml(*out), "containers:\n- env:\n  - name: B\n    value: v\n  name: c\n");
}

TEST(StoredValue, FieldsFollowTheRelease) {
  // PodSpecPatch gained terminationGracePeriodSeconds in v2.3.0 (#3324).
  const doc::Node patch = Yaml(
      "replicatedJobs:\n- name: node\n  template:\n    spec:\n      template:\n        spec:\n"
      "          terminationGracePeriodSeconds: 5\n          nodeName: dropped\n");
  Result<doc::Node> v22 = StoredValue(patch, *Types(trainer::TrainerVersion::kV2_2).job_set_spec_patch);
  Result<doc::Node> v23 = StoredValue(patch, *Types(trainer::TrainerVersion::kV2_3).job_set_spec_patch);
  ASSERT_TRUE(v22.ok() && v23.ok());
  EXPECT_EQ(ToYaml(*v22), "replicatedJobs:\n- name: node\n  template:\n    spec:\n      template:\n        spec: {}\n");
  EXPECT_EQ(ToYaml(*v23),
            "replicatedJobs:\n- name: node\n  template:\n    spec:\n      template:\n        spec:\n"
            "          terminationGracePeriodSeconds: 5\n");
  EXPECT_EQ(Types(trainer::TrainerVersion::kV2_1).job_set_spec_patch, nullptr);
  EXPECT_EQ(Types(trainer::TrainerVersion::kV2_3).pod_template_spec_override, nullptr);
}

TEST(StoredField, ValuesComeBackTypedAndUnknownFieldsFail) {
  const schema::Type& pod_spec = *Types(trainer::TrainerVersion::kV2_3).pod_spec;
  Result<doc::Node> overhead = StoredField(Yaml("cpu: 1000m\n"), pod_spec, "overhead");
  ASSERT_TRUE(overhead.ok());
  EXPECT_EQ(overhead->Find("cpu")->string_value(), "1");
  EXPECT_FALSE(StoredField(Yaml("x: 1\n"), pod_spec, "noSuchField").ok());
}

}  // namespace
}  // namespace tjr::render
