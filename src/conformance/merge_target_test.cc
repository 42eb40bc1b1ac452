#include "conformance/merge_target.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace tjr::conformance {
namespace {

doc::Node Json(std::string_view text) {
  auto node = json::Read(text, "test.json");
  EXPECT_TRUE(node.ok()) << (node.ok() ? "" : node.error().ToString());
  return node.ok() ? *node : doc::Node();
}

InputFile File(std::string name, std::vector<std::string_view> documents) {
  InputFile file{"input/" + name, {}};
  for (std::string_view document : documents) file.documents.push_back(Json(document));
  return file;
}

constexpr std::string_view kPodTemplate = R"({"apiVersion": "v1", "kind": "PodTemplate",
  "metadata": {"name": "t"}, "template": {"spec": {"containers": [{"name": "c", "image": "i",
  "env": [{"name": "A", "value": "a"}, {"name": "B", "value": "b"}]}]}}})";

std::string EnvPatch(std::string_view name) {
  return R"({"template": {"spec": {"containers": [{"name": "c", "env": [{"name": ")" +
         std::string(name) + R"(", "value": "p"}]}]}}})";
}

std::vector<std::string> EnvNames(const doc::Node& pod_template) {
  std::vector<std::string> names;
  const doc::Node& containers = *pod_template.Find("template")->Find("spec")->Find("containers");
  const doc::Node& env = *containers[0].Find("env");
  for (const doc::Node& var : env.items()) names.push_back(var.Find("name")->string_value());
  return names;
}

TEST(ParseMergeCommandTest, AcceptsTheJobSetVersion) {
  EXPECT_EQ(ParseMergeCommand({})->jobset_version, "");
  EXPECT_EQ(ParseMergeCommand({"--jobset-version", "v0.10"})->jobset_version, "v0.10");
  EXPECT_EQ(ParseMergeCommand({"--jobset-version=v0.12"})->jobset_version, "v0.12");
}

TEST(ParseMergeCommandTest, RefusesWhatItDoesNotKnow) {
  auto bad_value = ParseMergeCommand({"--jobset-version", "v0.11"});
  ASSERT_FALSE(bad_value.ok());
  EXPECT_EQ(bad_value.error().category, Category::kInput);
  EXPECT_NE(bad_value.error().message.find("must be v0.10 or v0.12, not 'v0.11'"),
            std::string::npos);
  EXPECT_FALSE(ParseMergeCommand({"--jobset-version"}).ok());
  auto unknown = ParseMergeCommand({"--kube-version", "1.34"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown option '--kube-version'"), std::string::npos);
}

TEST(MergePolicySetsTest, ChoosesPolicySetsByApiVersionAndJobSetVersion) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(*MergePolicySets("v1", {}), (Names{"kubernetes-v1.34"}));
  EXPECT_EQ(*MergePolicySets("batch/v1", {}), (Names{"kubernetes-v1.34"}));
  EXPECT_EQ(*MergePolicySets("jobset.x-k8s.io/v1alpha2", {"v0.10"}),
            (Names{"kubernetes-v1.34", "jobset-v0.10.1"}));
  EXPECT_EQ(*MergePolicySets("jobset.x-k8s.io/v1alpha2", {"v0.12"}),
            (Names{"kubernetes-v1.36", "jobset-v0.12.0"}));
  EXPECT_FALSE(MergePolicySets("jobset.x-k8s.io/v1alpha2", {}).ok());
  EXPECT_FALSE(MergePolicySets("v1", {"v0.12"}).ok());
}

TEST(RunMergeTargetTest, InputRolesAreChecked) {
  auto no_object = RunMergeTarget({File("patch.json", {"{}"})}, {});
  ASSERT_FALSE(no_object.ok());
  EXPECT_NE(no_object.error().message.find("needs input/object.yaml"), std::string::npos);

  auto no_patch = RunMergeTarget({File("object.json", {kPodTemplate})}, {});
  ASSERT_FALSE(no_patch.ok());
  EXPECT_NE(no_patch.error().message.find("at least one patch"), std::string::npos);

  auto two_objects = RunMergeTarget(
      {File("object.json", {kPodTemplate}), File("object.yaml", {kPodTemplate})}, {});
  ASSERT_FALSE(two_objects.ok());
  EXPECT_EQ(*two_objects.error().location.file, "input/object.yaml");

  auto two_documents = RunMergeTarget(
      {File("object.json", {kPodTemplate, kPodTemplate}), File("patch.json", {"{}"})}, {});
  ASSERT_FALSE(two_documents.ok());
  EXPECT_NE(two_documents.error().message.find("exactly one object"), std::string::npos);

  auto stray = RunMergeTarget({File("object.json", {kPodTemplate}), File("base.json", {"{}"})},
                              {});
  ASSERT_FALSE(stray.ok());
  EXPECT_EQ(*stray.error().location.file, "input/base.json");
}

TEST(RunMergeTargetTest, AppliesPatchFilesAndDocumentsInOrder) {
  // kubectl v1.32.4: O=[A,B] +[X] => [X,A,B]; +[Y] => [Y,X,A,B]; +[B] => [Y,X,A,B].
  std::string x = EnvPatch("X");
  std::string y = EnvPatch("Y");
  std::string b = EnvPatch("B");
  auto output = RunMergeTarget(
      {File("object.json", {kPodTemplate}), File("patch-1.json", {x, y}),
       File("patch-2.json", {b})},
      {});
  ASSERT_TRUE(output.ok()) << output.error().ToString();
  ASSERT_TRUE(output->diagnostics.empty()) << output->diagnostics.front().ToString();
  ASSERT_EQ(output->objects.size(), 1u);
  EXPECT_EQ(EnvNames(output->objects[0]), (std::vector<std::string>{"Y", "X", "A", "B"}));
}

TEST(RunMergeTargetTest, JobSetReplicatedJobsDependOnTheJobSetVersion) {
  constexpr std::string_view jobset = R"({"apiVersion": "jobset.x-k8s.io/v1alpha2",
    "kind": "JobSet", "metadata": {"name": "j"}, "spec": {"replicatedJobs": [
      {"name": "a", "replicas": 1}, {"name": "b", "replicas": 1}]}})";
  constexpr std::string_view patch = R"({"spec": {"replicatedJobs": [{"name": "b",
    "replicas": 2}]}})";
  auto v010 = RunMergeTarget({File("object.json", {jobset}), File("patch.json", {patch})},
                             {"--jobset-version", "v0.10"});
  ASSERT_TRUE(v010.ok()) << v010.error().ToString();
  ASSERT_EQ(v010->objects.size(), 1u);
  // Without a patch strategy the patch's list replaces the original's.
  EXPECT_EQ(*v010->objects[0].Find("spec"),
            Json(R"({"replicatedJobs": [{"name": "b", "replicas": 2}]})"));

  auto v012 = RunMergeTarget({File("object.json", {jobset}), File("patch.json", {patch})},
                             {"--jobset-version", "v0.12"});
  ASSERT_TRUE(v012.ok()) << v012.error().ToString();
  ASSERT_EQ(v012->objects.size(), 1u);
  EXPECT_EQ(*v012->objects[0].Find("spec"),
            Json(R"({"replicatedJobs": [{"name": "a", "replicas": 1},
                                        {"name": "b", "replicas": 2}]})"));

  auto unversioned =
      RunMergeTarget({File("object.json", {jobset}), File("patch.json", {patch})}, {});
  EXPECT_FALSE(unversioned.ok());
}

TEST(RunMergeTargetTest, RefusalsAreDiagnosticsOfTheOutput) {
  auto unknown_kind = RunMergeTarget(
      {File("object.json", {R"({"apiVersion": "example.com/v1", "kind": "Widget"})"}),
       File("patch.json", {"{}"})},
      {});
  ASSERT_TRUE(unknown_kind.ok());
  ASSERT_EQ(unknown_kind->diagnostics.size(), 1u);
  EXPECT_TRUE(unknown_kind->objects.empty());
  EXPECT_NE(unknown_kind->diagnostics[0].message.find(
                "no type for apiVersion 'example.com/v1', kind 'Widget' in policy sets "
                "kubernetes-v1.34"),
            std::string::npos);

  auto list_patch =
      RunMergeTarget({File("object.json", {kPodTemplate}), File("patch.json", {"[1]"})}, {});
  ASSERT_TRUE(list_patch.ok());
  ASSERT_EQ(list_patch->diagnostics.size(), 1u);
  EXPECT_NE(list_patch->diagnostics[0].message.find("a patch must be a mapping"),
            std::string::npos);

  // A merge-key list element without its key is refused by strategic merge itself.
  auto no_key = RunMergeTarget(
      {File("object.json", {kPodTemplate}),
       File("patch.json", {R"({"template": {"spec": {"containers": [{"image": "x"}]}}})"})},
      {});
  ASSERT_TRUE(no_key.ok());
  ASSERT_EQ(no_key->diagnostics.size(), 1u);
  EXPECT_TRUE(no_key->objects.empty());
}

}  // namespace
}  // namespace tjr::conformance
