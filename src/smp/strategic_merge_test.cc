#include "smp/strategic_merge.h"

#include <gtest/gtest.h>

#include "smp/test_schema.h"
#include "smp/test_tree.h"

namespace tjr::smp {
namespace {

using testing::Flow;
using testing::ToFlow;

Result<doc::Node> Merge(std::string_view original, std::string_view patch,
                        const schema::Type& type = testing::PodType()) {
  return StrategicMerge(Flow(original, "original.yaml"), Flow(patch, "patch.yaml"), type);
}

doc::Node MergedOrDie(std::string_view original, std::string_view patch,
                      const schema::Type& type = testing::PodType()) {
  Result<doc::Node> merged = Merge(original, patch, type);
  EXPECT_TRUE(merged.ok()) << merged.error().ToString();
  return merged.ok() ? std::move(merged).value() : doc::Node();
}

TEST(StrategicMergeTest, TheDataStructMustBeAStruct) {
  const Result<doc::Node> merged = Merge("{}", "{}", testing::StringMapType());
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.error().message, "expected a struct, but received a map");
}

TEST(StrategicMergeTest, DocumentsMustBeObjects) {
  const Result<doc::Node> list_original = Merge("[1]", "{}");
  ASSERT_FALSE(list_original.ok());
  EXPECT_EQ(list_original.error().message, "invalid JSON document");
  EXPECT_EQ(list_original.error().location.ToString(), "original.yaml:1:1");
  const Result<doc::Node> string_patch = Merge("{}", "\"x\"");
  ASSERT_FALSE(string_patch.ok());
  EXPECT_EQ(string_patch.error().message, "invalid JSON document");
}

TEST(StrategicMergeTest, NullDocumentsAreEmptyMaps) {
  EXPECT_TRUE(MergedOrDie("null", "{metadata: {name: a}}") == Flow("{metadata: {name: a}}"));
  EXPECT_TRUE(MergedOrDie("{metadata: {name: a}}", "null") == Flow("{metadata: {name: a}}"));
  EXPECT_TRUE(MergedOrDie("null", "null") == Flow("{}"));
  EXPECT_TRUE(MergedOrDie("{kind: Pod}", "{$patch: delete}") == Flow("{}"));
}

TEST(StrategicMergeTest, PodTemplateSpecOverride) {
  // The shape of a Trainer podTemplateOverride merged into a runtime template.
  const doc::Node merged = MergedOrDie(
      "{metadata: {labels: {a: runtime}}, spec: {nodeSelector: {zone: x},"
      " tolerations: [{key: runtime}], volumes: [{name: initializer, emptyDir: {}}],"
      " containers: [{name: node, image: trainer, env: [{name: A, value: a}]}]}}",
      "{metadata: {labels: {b: override}}, spec: {nodeSelector: {gpu: \"true\"},"
      " tolerations: [{key: override}], volumes: [{name: data, persistentVolumeClaim:"
      " {claimName: c}}], containers: [{name: node, env: [{name: B, value: b}]}]}}",
      testing::PodTemplateSpecType());
  EXPECT_TRUE(merged == Flow("{metadata: {labels: {a: runtime, b: override}},"
                             " spec: {nodeSelector: {zone: x, gpu: \"true\"},"
                             " tolerations: [{key: override}],"
                             " volumes: [{name: data, persistentVolumeClaim: {claimName: c}},"
                             " {name: initializer, emptyDir: {}}],"
                             " containers: [{name: node, image: trainer,"
                             " env: [{name: B, value: b}, {name: A, value: a}]}]}}"))
      << ToFlow(merged);
}

TEST(StrategicMergeTest, InputsAreNotModifiedAndUntouchedSubtreesAreShared) {
  const doc::Node original =
      Flow("{metadata: {name: p, labels: {a: b}}, spec: {containers: [{name: c}]}}");
  const doc::Node patch = Flow("{metadata: {labels: {c: d}}, status: {phase: Running}}");
  const std::string original_text = ToFlow(original);
  const std::string patch_text = ToFlow(patch);
  Result<doc::Node> merged = StrategicMerge(original, patch, testing::PodType());
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(ToFlow(original), original_text);
  EXPECT_EQ(ToFlow(patch), patch_text);
  EXPECT_TRUE(merged->Find("spec")->SharesRepresentationWith(*original.Find("spec")));
  EXPECT_TRUE(merged->Find("status")->SharesRepresentationWith(*patch.Find("status")));
  EXPECT_FALSE(merged->Find("metadata")->SharesRepresentationWith(*original.Find("metadata")));
}

TEST(StrategicMergeTest, AnEmptyPatchReturnsTheOriginalItself) {
  const doc::Node original = Flow("{spec: {containers: [{name: c, env: [{name: A}]}]}}");
  Result<doc::Node> merged = StrategicMerge(original, Flow("{spec: {containers: [{name: c}]}}"),
                                            testing::PodType());
  ASSERT_TRUE(merged.ok());
  EXPECT_TRUE(merged.value() == original);
  const doc::Node& env = *merged->Find("spec")->Find("containers")->items()[0].Find("env");
  EXPECT_TRUE(env.SharesRepresentationWith(
      *original.Find("spec")->Find("containers")->items()[0].Find("env")));
}

TEST(StrategicMergeTest, NewKeysFollowTheOriginalKeysInPatchOrder) {
  const doc::Node merged =
      MergedOrDie("{spec: {hostname: h, dnsPolicy: d}}",
                  "{spec: {subdomain: s, dnsPolicy: e, affinity: {}, $setElementOrder/containers: [],"
                  " nodeName: n}}");
  std::vector<std::string> keys;
  for (const doc::Field& field : merged.Find("spec")->fields()) keys.push_back(field.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"hostname", "dnsPolicy", "subdomain", "affinity",
                                            "nodeName"}));
}

TEST(StrategicMergeTest, ErrorsCarryThePatchLocationAndPath) {
  const Result<doc::Node> merged = Merge(
      "{spec: {containers: [{name: a, env: [{name: X}]}]}}",
      "{spec: {containers: [\n  {name: a, env: [\n    {value: v}]}]}}");
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.error().message, "map: map[value:v] does not contain declared merge key: name");
  EXPECT_EQ(merged.error().field_path, "spec.containers[0].env[0]");
  EXPECT_EQ(merged.error().location.ToString(), "patch.yaml:3:5");
}

TEST(StrategicMergeTest, IntegersAndFloatsAreDifferentGoValues) {
  // The JSON decoder makes 80 an int64 and 80.0 a float64; Go's == keeps
  // them apart, so the merge key does not match.
  EXPECT_TRUE(MergedOrDie("{spec: {containers: [{name: c, ports: [{containerPort: 80}]}]}}",
                          "{spec: {containers: [{name: c, ports: [{containerPort: 80.0, "
                          "name: f}]}]}}") ==
              Flow("{spec: {containers: [{name: c, ports: [{containerPort: 80.0, name: f}, "
                   "{containerPort: 80}]}]}}"));
  const Result<doc::Node> mixed =
      Merge("{spec: {securityContext: {supplementalGroups: [1]}}}",
            "{metadata: {finalizers: [1]}, spec: {securityContext: {supplementalGroups: [2.5]}}}");
  ASSERT_TRUE(mixed.ok());
  const Result<doc::Node> finalizers =
      Merge("{metadata: {finalizers: [1, 2]}}", "{metadata: {finalizers: [2.0]}}");
  ASSERT_FALSE(finalizers.ok());
  EXPECT_EQ(finalizers.error().message, "list element types are not identical: [[1 2] [2]]");
}

// Go ranges over the patch map in random order; this implementation takes
// the keys sorted, so a deletion list is applied before its list.
TEST(StrategicMergeTest, DeletionListSortsBeforeItsList) {
  EXPECT_TRUE(MergedOrDie("{metadata: {finalizers: [a, b]}}",
                          "{metadata: {finalizers: [a], $deleteFromPrimitiveList/finalizers: [a]}}") ==
              Flow("{metadata: {finalizers: [a, b]}}"));
  const Result<doc::Node> two_errors =
      Merge("{spec: {zeta: {a: b}, alpha: {a: b}}}", "{spec: {zeta: {c: d}, alpha: {c: d}}}");
  ASSERT_FALSE(two_errors.ok());
  EXPECT_EQ(two_errors.error().field_path, "spec.alpha");
}

}  // namespace
}  // namespace tjr::smp
