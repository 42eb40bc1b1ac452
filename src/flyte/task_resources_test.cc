// flyteadmin's task resources at launch (flyteorg/flyte v1.16.8 flyteadmin).
#include "flyte/task_resources.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "flyte/compose.h"
#include "flyte/task.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::flyte {
namespace {

// The value of `text` (a leading `{` would make the reader take JSON, as
// kubectl does).
doc::Node Yaml(std::string_view text) {
  std::string wrapped = "value:\n";
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    wrapped += "  " + std::string(text.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  auto docs = yaml::ReadStream(wrapped, "test.yaml");
  EXPECT_TRUE(docs.ok());
  if (!docs.ok() || docs->empty() || (*docs)[0].Find("value") == nullptr) return doc::Node();
  return *(*docs)[0].Find("value");
}

typed::Quantity Q(std::string_view text) { return *typed::Quantity::Parse(text); }

// A container as BuildContainer makes it from TaskTemplate.container.
doc::Node ContainerWith(std::string_view resources) {
  doc::Node container = doc::Node::Mapping();
  container.Set("resources", Yaml(resources));
  return container;
}

void ExpectResources(const doc::Node& container, std::string_view expected) {
  const doc::Node* resources = container.Find("resources");
  ASSERT_NE(resources, nullptr);
  EXPECT_EQ(yaml::Write(*resources), yaml::Write(Yaml(expected)));
}

TEST(TaskResources, BuiltInDefaultsReachThePluginsWithEveryKey) {
  // task_resource_provider.go:12-22 through taskexec_context.go:194-209:
  // unset keys are zero quantities, so resolvePlatformDefaults never fills
  // in default-cpus/default-memory.
  doc::Node platform = PlatformResourcesOf(BuiltInTaskResources());
  EXPECT_EQ(yaml::Write(platform), yaml::Write(Yaml(R"(
limits: {cpu: "2", ephemeral-storage: "0", memory: 1Gi, nvidia.com/gpu: "1"}
requests: {cpu: "2", ephemeral-storage: "0", memory: 200Mi, nvidia.com/gpu: "0"}
)")));
}

// execution_manager_test.go:4374-4457 TestSetDefaults.
TEST(TaskResources, SetDefaultsUpstream) {
  TaskResources platform;
  platform.defaults = {Q("200m"), Q("4"), Q("200Gi"), Q("500Mi")};
  platform.limits = {Q("300m"), Q("8"), Q("500Gi"), Q("501Mi")};
  doc::Node container = ContainerWith("{limits: {}, requests: {cpu: 250m}}");
  SetCompiledTaskDefaults(&container, platform);
  ExpectResources(container, R"(
limits: {cpu: 250m, memory: 200Gi, ephemeral-storage: 500Mi, nvidia.com/gpu: "4"}
requests: {cpu: 250m, memory: 200Gi, ephemeral-storage: 500Mi, nvidia.com/gpu: "4"}
)");
}

// execution_manager_test.go:4459-4533: a limit alone in the configuration
// (ephemeral storage) injects nothing.
TEST(TaskResources, SetDefaultsLimitAloneInjectsNothing) {
  TaskResources platform;
  platform.defaults = {Q("200m"), Q("4"), Q("200Gi"), {}};
  platform.limits = {Q("300m"), Q("8"), {}, Q("100")};
  doc::Node container = ContainerWith("{limits: {}, requests: {cpu: 250m}}");
  SetCompiledTaskDefaults(&container, platform);
  ExpectResources(container, R"(
limits: {cpu: 250m, memory: 200Gi, nvidia.com/gpu: "4"}
requests: {cpu: 250m, memory: 200Gi, nvidia.com/gpu: "4"}
)");
}

// execution_manager_test.go:4535-4640 TestSetDefaults_OptionalRequiredResources.
TEST(TaskResources, SetDefaultsOptionalResources) {
  TaskResources platform;
  platform.limits = {Q("300m"), Q("1"), Q("500Gi"), Q("501Mi")};
  platform.defaults = {Q("200m"), {}, Q("200Gi"), {}};
  doc::Node container = ContainerWith("{limits: {}, requests: {cpu: 200m}}");
  SetCompiledTaskDefaults(&container, platform);
  ExpectResources(container, "{limits: {cpu: 200m, memory: 200Gi}, requests: {cpu: 200m, memory: 200Gi}}");

  platform.defaults.ephemeral_storage = Q("1");
  container = ContainerWith("{limits: {}, requests: {cpu: 200m}}");
  SetCompiledTaskDefaults(&container, platform);
  ExpectResources(container, R"(
limits: {cpu: 200m, memory: 200Gi, ephemeral-storage: "1"}
requests: {cpu: 200m, memory: 200Gi, ephemeral-storage: "1"}
)");
}

TEST(TaskResources, SetDefaultsClampsAndDropsWhatFlyteidlCannotSay) {
  // An unset limit becomes the request, so a task asking for nothing is
  // limited to the default (200Mi), not to the platform limit (1Gi); a
  // request over the platform limit is lowered to it; Quantity.String()
  // prints the values; a resource flyteidl has no name for is dropped.
  doc::Node container = ContainerWith(R"(
limits: {nvidia.com/gpu: "2", example.com/fpga: "1"}
requests: {cpu: "4", memory: "0.5Gi"}
)");
  SetCompiledTaskDefaults(&container, BuiltInTaskResources());
  ExpectResources(container, R"(
limits: {cpu: "2", memory: 512Mi, nvidia.com/gpu: "1"}
requests: {cpu: "2", memory: 512Mi, nvidia.com/gpu: "1"}
)");
  container = ContainerWith("{limits: {}, requests: {}}");
  SetCompiledTaskDefaults(&container, BuiltInTaskResources());
  ExpectResources(container, "{limits: {cpu: '2', memory: 200Mi}, requests: {cpu: '2', memory: 200Mi}}");
}

TEST(TaskResources, ZeroPlatformDefaultsLeaveZeroes) {
  // Matchable attributes that give limits only: the request has nothing to
  // default from, and ToK8sResourceList drops the zero flyteadmin wrote.
  Result<TaskResources> attributes =
      FromTaskResourceAttributes(Yaml("{limits: {cpu: '1', memory: 2Gi}}"), "execution.taskResourceAttributes");
  ASSERT_TRUE(attributes.ok());
  doc::Node container = ContainerWith("{limits: {}, requests: {}}");
  SetCompiledTaskDefaults(&container, *attributes);
  ExpectResources(container, "{limits: {}, requests: {}}");
  EXPECT_EQ(yaml::Write(PlatformResourcesOf(*attributes)), yaml::Write(Yaml(R"(
limits: {cpu: "1", ephemeral-storage: "0", memory: 2Gi, nvidia.com/gpu: "0"}
requests: {cpu: "0", ephemeral-storage: "0", memory: "0", nvidia.com/gpu: "0"}
)")));
}

TEST(TaskResources, AttributesThatDoNotParseAreZero) {
  // resources.go:18-26 parseQuantityNoError.
  Result<TaskResources> attributes = FromTaskResourceAttributes(
      Yaml("{defaults: {cpu: lots, memory: 1Gi, ephemeral_storage: 1Gi}}"), "execution.taskResourceAttributes");
  ASSERT_TRUE(attributes.ok());
  EXPECT_TRUE(attributes->defaults.cpu.is_zero());
  EXPECT_EQ(attributes->defaults.memory.String(), "1Gi");
  EXPECT_EQ(attributes->defaults.ephemeral_storage.String(), "1Gi");
  EXPECT_FALSE(FromTaskResourceAttributes(Yaml("{defaults: {cpu: [1]}}"), "x").ok());
}

TEST(TaskResources, ConfigSectionKeepsWhatItLeavesOut) {
  // flytestdlib decodes over a copy of the current value: the flyte-core
  // chart's section (values.yaml task_resource_defaults) replaces what it
  // names; `storage` is no TaskResourceSet field; viper's lower-cased
  // `ephemeralstorage` still matches.
  TaskResources resources = BuiltInTaskResources();
  ASSERT_TRUE(DecodeTaskResourcesSection(Yaml(R"(
defaults: {cpu: 100m, memory: 500Mi, storage: 5Mi, ephemeralstorage: 1Gi}
limits: {cpu: 4}
)"),
                                         &resources)
                  .ok());
  EXPECT_EQ(yaml::Write(PlatformResourcesOf(resources)), yaml::Write(Yaml(R"(
limits: {cpu: "4", ephemeral-storage: "0", memory: 1Gi, nvidia.com/gpu: "1"}
requests: {cpu: 100m, ephemeral-storage: 1Gi, memory: 500Mi, nvidia.com/gpu: "0"}
)")));
  Status bad = DecodeTaskResourcesSection(Yaml("defaults:\n  cpu: two\n"), &resources);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().location.line, 3);  // after the helper's `value:` line
  EXPECT_NE(bad.error().message.find("quantities must match"), std::string::npos) << bad.error().message;
}

TEST(TaskResources, GivenPlatformResourcesSkipTheLaunch) {
  Task task;
  task.has_container = true;
  task.container = ContainerWith("{limits: {}, requests: {cpu: 250m}}");
  task.execution.platform_resources = doc::Node::Mapping();
  LaunchThroughFlyteAdmin(&task, BuiltInTaskResources(), Version::kV1_16);
  ExpectResources(task.container, "{limits: {}, requests: {cpu: 250m}}");

  task.execution.platform_resources = doc::Node();
  LaunchThroughFlyteAdmin(&task, BuiltInTaskResources(), Version::kV2);
  EXPECT_EQ(yaml::Write(task.execution.platform_resources), "{}\n");
  ExpectResources(task.container, "{limits: {}, requests: {cpu: 250m}}");

  task.execution.platform_resources = doc::Node();
  LaunchThroughFlyteAdmin(&task, BuiltInTaskResources(), Version::kV1_16);
  ExpectResources(task.container, "{limits: {cpu: 250m, memory: 200Mi}, requests: {cpu: 250m, memory: 200Mi}}");
}

}  // namespace
}  // namespace tjr::flyte
