#include "flyte/secrets.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::flyte {
namespace {

doc::Node Template(std::string_view text) {
  auto docs = yaml::ReadStream(text, "task.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? docs->front() : doc::Node();
}

// The vectors of flyteplugins v1.16.8 utils/secrets/marshaler_test.go:33-46
// and flytepropeller task/k8s/task_exec_context_test.go:46-62.
TEST(FlyteSecrets, MarshalsAsUpstreamTestsExpect) {
  Secret forbidden;
  forbidden.group = ";':/\\";
  EXPECT_EQ(MarshalSecret(forbidden), "m4zg54lqhiqceozhhixvyxbcbi");
  Secret without_group;
  without_group.key = "my_key";
  EXPECT_EQ(MarshalSecret(without_group), "nnsxsoraejwxsx2lmv3secq");
  Secret env_var;
  env_var.group = "my_group";
  env_var.key = "my_key";
  env_var.mount_requirement = 1;
  EXPECT_EQ(MarshalSecret(env_var),
            "m4zg54lqhiqce2lzl4txe22voarau12fpe4caitnpfpwwzlzeifg122vnz1f53tfof1ws3tfnvsw34b1ebcu3vs6kzavecq");
}

TEST(FlyteSecrets, ParsesEveryFieldAndRefusesUnknownMountTypes) {
  auto secrets = ParseSecrets(Template(
      "securityContext:\n  secrets:\n  - {group: g, groupVersion: v1, key: k, mountRequirement: FILE, envVar: E}\n"
      "  - {group: h, mount_requirement: 7}\n"));
  ASSERT_TRUE(secrets.ok()) << secrets.error().ToString();
  ASSERT_EQ(secrets->size(), 2u);
  EXPECT_EQ((*secrets)[0].group_version, "v1");
  EXPECT_EQ((*secrets)[0].mount_requirement, 2);
  EXPECT_EQ((*secrets)[0].env_var, "E");
  auto annotations = SecretAnnotations(*secrets);
  ASSERT_FALSE(annotations.ok());
  EXPECT_EQ(annotations.error().ToString(),
            "task.yaml:4:5: error: securityContext.secrets[1].mountRequirement: invalid mount requirement [7]");
  auto named = ParseSecrets(Template("securityContext: {secrets: [{group: g, mountRequirement: VAULT}]}\n"));
  ASSERT_FALSE(named.ok());
}

TEST(FlyteSecrets, LabelsAndAnnotationsJoinTheExecutions) {
  Task task;
  task.execution.labels["inject-flyte-secrets"] = "false";
  task.execution.labels["kept"] = "1";
  task.execution.annotations["flyte.secrets/s0"] = "mine";
  task.execution.execution_identity = "Name@Company.com";
  auto secrets = ParseSecrets(Template("securityContext: {secrets: [{key: my_key}]}\n"));
  ASSERT_TRUE(secrets.ok());
  task.secrets = *secrets;
  auto wrapped = WrapTaskExecutionMetadata(task, true);
  ASSERT_TRUE(wrapped.ok());
  EXPECT_EQ(wrapped->annotations, (StringMap{{"flyte.secrets/s0", "nnsxsoraejwxsx2lmv3secq"}}));
  EXPECT_EQ(wrapped->labels, (StringMap{{"execution-identity", "name-company-com"},
                                        {"inject-flyte-secrets", "true"}, {"kept", "1"}}));
  EXPECT_EQ(WrapTaskExecutionMetadata(task, false)->labels.count("execution-identity"), 0u);  // Flyte 2

  Task none;
  auto empty = WrapTaskExecutionMetadata(none, true);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->labels.empty());
  EXPECT_TRUE(empty->annotations.empty());
}

TEST(FlyteSecrets, SanitizesLabelValuesAsPropeller) {
  EXPECT_EQ(SanitizeLabelValue("test-exec-identity"), "test-exec-identity");
  EXPECT_EQ(SanitizeLabelValue("name@company.com"), "name-company-com");
  EXPECT_EQ(SanitizeLabelValue("--A__b--"), "a-b");
  EXPECT_EQ(SanitizeLabelValue("@@@"), "");
  EXPECT_EQ(SanitizeLabelValue("\xC4\xB0" "d-\xE2\x84\xAA" "elvin-\xC3\xA9t\xC3\xA9"), "id-kelvin--t");  // checked with Go 1.19
  EXPECT_EQ(SanitizeLabelValue(std::string(70, 'a') + "-b"), std::string(63, 'a'));
  EXPECT_EQ(SanitizeLabelValue(std::string(62, 'a') + "-b"), std::string(62, 'a'));
}

}  // namespace
}  // namespace tjr::flyte
