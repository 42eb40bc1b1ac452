// mergo v0.3.13 with WithOverride + WithAppendSlice, on core/v1 types
// (reference flyte-podtemplate.md §2.1).
#include "flyte/mergo.h"

#include <gtest/gtest.h>

#include "flyte/typed_value.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::flyte {
namespace {

doc::Node Yaml(std::string_view text) {
  auto docs = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

std::string Merge(std::string_view dst, std::string_view src, std::string_view type) {
  auto d = ToGoForm(Yaml(dst), type);
  auto s = ToGoForm(Yaml(src), type);
  EXPECT_TRUE(d.ok() && s.ok());
  doc::Node out = *d;
  MergoMerge(&out, *s, *CoreType(type));
  auto typed = ToGoForm(out, type);
  EXPECT_TRUE(typed.ok());
  return yaml::Write(*typed);
}

TEST(Mergo, SlicesAppendIncludingCommandAndArgs) {
  EXPECT_EQ(Merge("name: a\ncommand: [wrap]\nargs: [x]\nenv: [{name: A, value: t}]",
                  "command: [run]\nargs: [z]\nenv: [{name: A, value: b}]", "Container"),
            "args:\n- x\n- z\ncommand:\n- wrap\n- run\nenv:\n- name: A\n  value: t\n"
            "- name: A\n  value: b\nname: a\nresources: {}\n");
}

TEST(Mergo, ZeroScalarsNeverOverride) {
  EXPECT_EQ(Merge("containers: null\nhostNetwork: true\nschedulerName: s\npriority: 3",
                  "containers: null\nhostNetwork: false\nschedulerName: \"\"\npriority: 0", "PodSpec"),
            "containers: null\nhostNetwork: true\npriority: 3\nschedulerName: s\n");
}

TEST(Mergo, PointersTakeSrcWhenDstNilAndMergePointees) {
  // A nil dst takes a pointer to false; two set pointers keep true.
  EXPECT_EQ(Merge("containers: null", "containers: null\nautomountServiceAccountToken: false",
                  "PodSpec"),
            "automountServiceAccountToken: false\ncontainers: null\n");
  EXPECT_EQ(Merge("containers: null\nautomountServiceAccountToken: true",
                  "containers: null\nautomountServiceAccountToken: false", "PodSpec"),
            "automountServiceAccountToken: true\ncontainers: null\n");
}

TEST(Mergo, MapsOverridePerKeyEvenWithEmptyValues) {
  EXPECT_EQ(Merge("labels: {a: '1', b: '2'}", "labels: {b: '', c: '3'}", "ObjectMeta"),
            "labels:\n  a: \"1\"\n  b: \"\"\n  c: \"3\"\n");
}

TEST(Mergo, AffinityTermsAppendSoTheyAreOred) {
  EXPECT_EQ(Merge("affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                  "{nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}]}}}\n"
                  "containers: null",
                  "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                  "{nodeSelectorTerms: [{matchExpressions: [{key: b, operator: Exists}]}]}}}\n"
                  "containers: null",
                  "PodSpec"),
            "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n"
            "      nodeSelectorTerms:\n      - matchExpressions:\n        - key: a\n          operator: Exists\n"
            "      - matchExpressions:\n        - key: b\n          operator: Exists\ncontainers: null\n");
}

}  // namespace
}  // namespace tjr::flyte
