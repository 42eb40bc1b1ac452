// What --flyte-config takes: propeller's config file, its ConfigMap, a List
// of ConfigMaps, several documents, a Flyte chart's values; the rest is
// refused with its location.
#include "flyte/render.h"

#include <gtest/gtest.h>

#include "flyte/config.h"
#include "yaml/reader.h"

namespace tjr::flyte {
namespace {

std::vector<doc::Node> Documents(std::string_view text) {
  auto documents = yaml::ReadStream(text, "given.yaml");
  EXPECT_TRUE(documents.ok()) << documents.error().ToString();
  return documents.ok() ? *documents : std::vector<doc::Node>{};
}

struct Given {
  Result<doc::Node> document = doc::Node();
  std::string propeller_namespace;
  Diagnostics notes;
};

Given Read(std::string_view text) {
  Given given;
  given.document = GivenConfigDocument(Documents(text), "given.yaml", &given.notes, &given.propeller_namespace);
  return given;
}

std::string SchedulerName(const Given& given) {
  if (!given.document.ok()) return "<" + given.document.error().ToString() + ">";
  const doc::Node* k8s = FindK8sSection(*given.document);
  if (k8s == nullptr) return "<no plugins.k8s>";
  Result<PluginConfig> config = ParsePluginConfig(*k8s);
  return config.ok() ? config->scheduler_name : "<" + config.error().ToString() + ">";
}

constexpr std::string_view kPropellerConfigMap = R"(apiVersion: v1
kind: ConfigMap
metadata: {name: flyte-propeller-config, namespace: flyte-prod}
data:
  core.yaml: |
    propeller: {literal-offloading-config: {enabled: true}}
  k8s.yaml: |
    plugins:
      k8s: {scheduler-name: from-k8s-yaml, default-labels: {team: ml}}
  enabled_plugins.yaml: |
    tasks: {task-plugins: {enabled-plugins: [container, sidecar, k8s-array]}}
)";

TEST(GivenConfig, APropellerConfigMapIsReadAsPropellerMountsIt) {
  Given given = Read(kPropellerConfigMap);
  EXPECT_EQ(SchedulerName(given), "from-k8s-yaml");
  EXPECT_EQ(given.propeller_namespace, "flyte-prod");
  ASSERT_TRUE(given.document.ok());
  EXPECT_NE(given.document->Find("propeller"), nullptr);
}

TEST(GivenConfig, AListOfConfigMapsPassesOverTheOnesWithoutConfiguration) {
  Given given = Read(R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: kube-root-ca.crt, namespace: flyte}
  data: {ca.crt: "-----BEGIN CERTIFICATE-----"}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: flyte-admin-base-config, namespace: flyte}
  data:
    task_resource_defaults.yaml: |
      task_resources: {defaults: {cpu: 500m, memory: 1Gi}}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: flyte-propeller-config, namespace: flyte}
  data:
    k8s.yaml: |
      plugins: {k8s: {scheduler-name: from-list}}
)");
  EXPECT_EQ(SchedulerName(given), "from-list");
  EXPECT_EQ(given.propeller_namespace, "flyte");
  ASSERT_TRUE(given.document.ok());
  EXPECT_NE(FindTaskResourcesSection(*given.document), nullptr);
}

TEST(GivenConfig, SeveralDocumentsMergeLaterOnesWinning) {
  Given given = Read(std::string(kPropellerConfigMap) +
                     "---\nplugins:\n  k8s:\n    scheduler-name: from-the-second-document\n");
  EXPECT_EQ(SchedulerName(given), "from-the-second-document");
  ASSERT_TRUE(given.document.ok());
  Result<PluginConfig> config = ParsePluginConfig(*FindK8sSection(*given.document));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->default_labels, (StringMap{{"team", "ml"}}));  // merged, not replaced
}

TEST(GivenConfig, WhatIsNoPropellerConfigurationIsRefusedWhereItIs) {
  Given deployment = Read("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: flytepropeller}\n");
  ASSERT_FALSE(deployment.document.ok());
  EXPECT_EQ(deployment.document.error().category, Category::kInput);
  EXPECT_EQ(deployment.document.error().ToString().substr(0, 58),
            "given.yaml:1:1: error: --flyte-config: a Deployment (apps/");
  Given scalar = Read("plugins.k8s.scheduler-name: x\n---\njust text\n");
  ASSERT_FALSE(scalar.document.ok());
  EXPECT_NE(scalar.document.error().ToString().find("given.yaml:3:1: error: --flyte-config: a document that is a string"),
            std::string::npos)
      << scalar.document.error().ToString();
  Given typo = Read("plugin:\n  k8s: {scheduler-name: x}\n");
  ASSERT_FALSE(typo.document.ok());
  EXPECT_NE(typo.document.error().message.find("none of the sections tjrender reads (plugins.k8s, propeller, "
                                               "task_resources; its top-level keys: plugin)"),
            std::string::npos)
      << typo.document.error().message;
  Given empty_configmap = Read("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: flyte}\n"
                               "data: {settings.json: '{}'}\n");
  ASSERT_FALSE(empty_configmap.document.ok());
  EXPECT_NE(empty_configmap.document.error().message.find("the file holds ConfigMap flyte/other and none"),
            std::string::npos)
      << empty_configmap.document.error().message;
  Given nothing = Read("");
  ASSERT_FALSE(nothing.document.ok());
  EXPECT_EQ(nothing.document.error().location.ToString(), "given.yaml");
}

}  // namespace
}  // namespace tjr::flyte
