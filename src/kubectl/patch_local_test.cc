#include "kubectl/patch_local.h"

#include <string>

#include <gtest/gtest.h>

#include "base/file.h"
#include "testkit/temp_dir.h"

namespace tjr::kubectl {
namespace {

std::string Fixture(const std::string& name) {
  auto text = ReadFile(testkit::SourcePath("fixtures/demo/" + name));
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

TEST(PatchLocalTest, DemoMatchesKubectlByteForByte) {
  // expected-kubectl.yaml is kubectl v1.32.4's stdout for the same files.
  auto out = PatchLocal(Fixture("runtime-podtemplate.yaml"), "runtime-podtemplate.yaml",
                        Fixture("override.yaml"), "override.yaml", {});
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(*out, Fixture("expected-kubectl.yaml"));
}

TEST(PatchLocalTest, PrintsSeveralObjectsBackToBackAsKubectlDoes) {
  const char* objects =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n"
      "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: b}\n";
  auto out = PatchLocal(objects, "two.yaml", "metadata: {labels: {x: \"1\"}}", "p.yaml", {});
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(*out,
            "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    x: \"1\"\n  name: a\n"
            "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  labels:\n    x: \"1\"\n  name: b\n");
}

TEST(PatchLocalTest, RefusesKindsWithoutTypesLikeKubectl) {
  const char* object = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n";
  auto out = PatchLocal(object, "w.yaml", "{}", "p.yaml", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message,
            "strategic merge patch is not supported for example.com/v1, Kind=Widget locally, "
            "try --type merge");
  EXPECT_EQ(out.error().category, Category::kFinding);

  auto core = PatchLocal("kind: PodTemplate\nmetadata: {name: b}\n", "n.yaml", "{}", "p.yaml", {});
  ASSERT_FALSE(core.ok());
  EXPECT_EQ(core.error().message,
            "strategic merge patch is not supported for /, Kind=PodTemplate locally, try --type "
            "merge");
}

TEST(PatchLocalTest, TypesJobSetWithTheChosenJobSetVersion) {
  const char* object =
      "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: a}\n"
      "spec:\n  replicatedJobs:\n  - {name: launcher, replicas: 1}\n  - {name: node, replicas: 1}\n";
  const char* patch = "spec:\n  replicatedJobs:\n  - {name: node, replicas: 4}\n";
  PatchLocalOptions v10;
  auto replaced = PatchLocal(object, "js.yaml", patch, "p.yaml", v10);
  ASSERT_TRUE(replaced.ok()) << replaced.error().ToString();
  EXPECT_EQ(replaced->find("launcher"), std::string::npos);  // v0.10: list replaced

  PatchLocalOptions v12;
  v12.jobset_version = "v0.12";
  auto merged = PatchLocal(object, "js.yaml", patch, "p.yaml", v12);
  ASSERT_TRUE(merged.ok()) << merged.error().ToString();
  EXPECT_NE(merged->find("launcher"), std::string::npos);  // v0.12: merged by name
  EXPECT_NE(merged->find("replicas: 4"), std::string::npos);
}

TEST(PatchLocalTest, MalformedInputIsAnInputErrorWithALocation) {
  auto out = PatchLocal("apiVersion: v1\nkind: Pod\n", "pod.yaml", "a: [1\n", "patch.yaml", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().category, Category::kInput);
  EXPECT_EQ(*out.error().location.file, "patch.yaml");
  EXPECT_GT(out.error().location.line, 0u);
}

TEST(PatchLocalTest, PatchMustBeAnObject) {
  auto out = PatchLocal("apiVersion: v1\nkind: Pod\n", "pod.yaml", "- a\n", "patch.yaml", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message, "invalid JSON document");
  auto number = PatchLocal("apiVersion: v1\nkind: Pod\n", "pod.yaml", "5\n", "patch.yaml", {});
  ASSERT_FALSE(number.ok());
  EXPECT_EQ(number.error().message, "invalid JSON document");
}

// kubectl prints these without a place; tjrender keeps the text and names the
// object's file and line. After --typed the tree is new and has no places of
// its own (the smp_merge fuzz target found such an error without a file).
TEST(PatchLocalTest, ErrorsAfterTheTypedRoundTripNameTheObject) {
  const std::string pod = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {\"a\\u007fb\": x}\n";
  PatchLocalOptions typed;
  typed.typed = true;
  auto printed = PatchLocal(pod, "pod.yaml", "{}", "patch.yaml", typed);
  ASSERT_FALSE(printed.ok());
  EXPECT_EQ(printed.error().ToString(),
            "pod.yaml:2:1: error: metadata.annotations.a\\177b: yaml: control characters are not allowed");
}

}  // namespace
}  // namespace tjr::kubectl
