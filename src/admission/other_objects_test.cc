// Cases after pkg/apis/core/validation/validation_test.go
// TestValidateConfigMap at v1.34.0, and the PodGroup CRDs' schemas.
#include "admission/other_objects.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::admission {
namespace {

using Lines = std::vector<std::string>;

doc::Node Yaml(std::string_view text) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(text, "object.yaml");
  EXPECT_TRUE(read.ok());
  return read.ok() && !read->empty() ? read->front() : doc::Node();
}

Lines Messages(const ObjectErrors& errors) {
  Lines out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

Lines ConfigMapErrors(std::string_view body) {
  ObjectErrors errors;
  ValidateConfigMap(Yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: ml}\n" + std::string(body)),
                    *KubernetesRulesOf("1.34"), &errors);
  return Messages(errors);
}

TEST(ValidateConfigMapTest, Keys) {
  EXPECT_EQ(ConfigMapErrors("data:\n  key: value\n  .dot: ok\nbinaryData:\n  bin: AAEC\n"), Lines{});
  EXPECT_EQ(ConfigMapErrors("data:\n  a b: x\n"),
            Lines{"data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, "
                  "'-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
                  "'[-._a-zA-Z0-9]+')"});
  EXPECT_EQ(ConfigMapErrors("data:\n  \"..\": x\n"), Lines{"data[..]: Invalid value: \"..\": must not be '..'"});
  EXPECT_EQ(ConfigMapErrors("data:\n  same: x\nbinaryData:\n  same: AAEC\n"),
            Lines{"data[same]: Invalid value: \"same\": duplicate of key present in binaryData"});
}

TEST(ValidateConfigMapTest, TotalSizeIsAtMostOneMebibyte) {
  const std::string half(524288, 'x');
  EXPECT_EQ(ConfigMapErrors("data:\n  a: " + half + "\n  b: " + half + "\n"), Lines{});
  EXPECT_EQ(ConfigMapErrors("data:\n  a: " + half + "\n  b: " + half + "x\n"),
            Lines{"[]: Too long: may not be more than 1048576 bytes"});
}

Lines PodGroupErrors(std::string_view api_version, std::string_view spec) {
  ObjectErrors errors;
  ValidatePodGroup(Yaml("apiVersion: " + std::string(api_version) +
                        "\nkind: PodGroup\nmetadata: {name: pg, namespace: ml}\nspec:\n" + std::string(spec)),
                   &errors);
  return Messages(errors);
}

TEST(ValidatePodGroupTest, SchedulerPluginsSchema) {
  const std::string_view api = "scheduling.x-k8s.io/v1alpha1";
  EXPECT_EQ(PodGroupErrors(api, "  minMember: 4\n  scheduleTimeoutSeconds: 60\n  minResources: {cpu: \"8\", "
                                "nvidia.com/gpu: 4}\n"),
            Lines{});
  // No minimum in the schema: a negative count is stored.
  EXPECT_EQ(PodGroupErrors(api, "  minMember: -1\n"), Lines{});
  EXPECT_EQ(PodGroupErrors(api, "  minMember: \"4\"\n"),
            Lines{"spec.minMember: Invalid value: \"string\": spec.minMember in body must be of type integer: "
                  "\"string\""});
  EXPECT_EQ(PodGroupErrors(api, "  minResources: {cpu: lots}\n"),
            Lines{"spec.minResources.cpu: Invalid value: \"lots\": spec.minResources.cpu in body should match "
                  "'^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-"
                  "9]*)?)|(\\.[0-9]+))))?$'"});
}

TEST(ValidatePodGroupTest, VolcanoSchema) {
  const std::string_view api = "scheduling.volcano.sh/v1beta1";
  EXPECT_EQ(PodGroupErrors(api, "  minMember: 2\n  queue: default\n  minTaskMember: {node: 2}\n"), Lines{});
  EXPECT_EQ(PodGroupErrors(api, "  queue: 3\n  networkTopology: {mode: strict}\n"),
            (Lines{"spec.queue: Invalid value: \"integer\": spec.queue in body must be of type string: \"integer\"",
                   "spec.networkTopology.mode: Unsupported value: \"strict\": supported values: \"hard\", \"soft\""}));
}

}  // namespace
}  // namespace tjr::admission
