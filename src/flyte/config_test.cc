// Propeller configuration as the Helm charts ship it (reference §1.1, config.go).
#include "flyte/config.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::flyte {
namespace {

doc::Node Yaml(std::string_view text) {
  auto docs = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

TEST(PluginConfig, ConfigMapKeysMergeInKeyOrder) {
  doc::Node configmap = Yaml(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: flyte-propeller-config, namespace: flyte}
data:
  core.yaml: |
    propeller: {workers: 4}
  k8s.yaml: |
    plugins:
      k8s:
        default-labels: {a: from-k8s}
        scheduler-name: first
  z-override.yaml: |
    plugins:
      k8s:
        scheduler-name: second
        default-labels: {b: from-z}
  notes.txt: "plugins: {k8s: {scheduler-name: ignored}}"
)");
  auto section = K8sSectionFromConfigMap(configmap);
  ASSERT_TRUE(section.ok());
  ASSERT_TRUE(section->has_value());
  auto config = ParsePluginConfig(**section);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->scheduler_name, "second");
  EXPECT_EQ(config->default_labels, (StringMap{{"a", "from-k8s"}, {"b", "from-z"}}));
}

TEST(PluginConfig, DefaultAnnotationsBuiltinUnlessConfigured) {
  auto unset = ParsePluginConfig(Yaml("scheduler-name: s"));
  ASSERT_TRUE(unset.ok());
  EXPECT_FALSE(unset->default_annotations.has_value());
  auto set = ParsePluginConfig(Yaml("default-annotations: {x: \"1\"}"));
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(*set->default_annotations, (StringMap{{"x", "1"}}));
}

TEST(PluginConfig, TypedValuesAndShapeErrors) {
  auto config = ParsePluginConfig(Yaml(R"(default-tolerations: [{key: k, operator: Exists, unknown: 1}]
enable-host-networking-pod: "true"
default-cpus: 500m
)"));
  ASSERT_TRUE(config.ok());
  ASSERT_EQ(config->default_tolerations.size(), 1u);
  EXPECT_EQ(config->default_tolerations[0].Find("unknown"), nullptr);
  EXPECT_TRUE(config->enable_host_networking_pod.value_or(false));
  EXPECT_EQ(config->default_cpus, "500m");
  auto bad = ParsePluginConfig(Yaml("default-labels: [a]"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field_path, "plugins.k8s.default-labels");
}

}  // namespace
}  // namespace tjr::flyte

namespace tjr::flyte {
namespace {

// flytestdlib/config/viper/viper.go:266-330 (v1.16.8) and the sample
// flytek8s/testdata/config.yaml: viper lower-cases map keys; keys with a dot
// and everything inside lists keep their case; lists of maps are maps.
TEST(PluginConfig, ViperKeyCaseAndWeakDecoding) {
  auto config = ParsePluginConfig(Yaml(R"(Scheduler-Name: s
default-env-vars:
  - AWS_METADATA_SERVICE_TIMEOUT: 5
  - FLYTE_AWS_ACCESS_KEY_ID: minio
default-labels: {Team: x, app.kubernetes.io/Name: yy}
default-node-selector: {User: default}
resource-tolerations:
  nvidia.com/gpu: {key: flyte/gpu, value: dedicated, operator: Equal, effect: NoSchedule}
  storage: [{key: storage, operator: Equal}]
default-env-from-secrets: one
)"));
  ASSERT_TRUE(config.ok()) << config.error().ToString();
  EXPECT_EQ(config->scheduler_name, "s");
  EXPECT_EQ(config->default_env_vars,
            (StringMap{{"AWS_METADATA_SERVICE_TIMEOUT", "5"}, {"FLYTE_AWS_ACCESS_KEY_ID", "minio"}}));
  EXPECT_EQ(config->default_labels, (StringMap{{"team", "x"}, {"app.kubernetes.io/Name", "yy"}}));
  EXPECT_EQ(config->default_node_selector, (StringMap{{"user", "default"}}));
  ASSERT_EQ(config->resource_tolerations.size(), 2u);
  EXPECT_EQ(config->resource_tolerations["nvidia.com/gpu"].size(), 1u);
  EXPECT_EQ(config->resource_tolerations["storage"].size(), 1u);
  EXPECT_EQ(config->default_env_from_secrets, (std::vector<std::string>{"one"}));
}

}  // namespace
}  // namespace tjr::flyte

namespace tjr::flyte {
namespace {

doc::Node PropellerYaml(std::string_view text) {
  auto docs = yaml::ReadStream(text, "core.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? *docs->front().Find("propeller") : doc::Node();
}

// flytepropeller v1.16.8 pkg/controller/config/config.go:131-138,187-195.
TEST(PropellerSection, LiteralOffloadingDefaultsCaseAndShapes) {
  PluginConfig config;
  EXPECT_FALSE(config.literal_offloading.enabled);
  EXPECT_EQ(config.literal_offloading.min_size_mb, 10);
  EXPECT_EQ(config.literal_offloading.max_size_mb, 1000);
  ASSERT_TRUE(ApplyPropellerSection(PropellerYaml("propeller:\n  literal-offloading-config:\n    Enabled: \"true\"\n"
                                                  "    min-size-in-mb-for-offloading: \"5\"\n"),
                                    &config)
                  .ok());
  EXPECT_TRUE(config.literal_offloading.enabled);
  EXPECT_EQ(config.literal_offloading.min_size_mb, 5);
  EXPECT_EQ(config.literal_offloading.max_size_mb, 1000);
  Status bad = ApplyPropellerSection(
      PropellerYaml("propeller:\n  literal-offloading-config:\n    max-size-in-mb-for-offloading: 1.5\n"), &config);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().ToString().find("core.yaml:3:36"), std::string::npos) << bad.error().ToString();
}

}  // namespace
}  // namespace tjr::flyte
