#include "pipeline/target.h"

#include <gtest/gtest.h>

#include <string>

#include "validate/removed_api.h"

namespace tjr::pipeline {
namespace {

std::string NameOf(const TargetProfile* target) { return target == nullptr ? "none" : std::string(target->name); }

TEST(Targets, AReleaseTagNamesTheTargetOfItsMinorVersion) {
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.1.0")), "trainer-v2.1");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.1.3")), "trainer-v2.1");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("2.2.0")), "trainer-v2.2");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.3")), "trainer-v2.3");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.3.0-rc.1")), "none");  // a pre-release is no release row
  // Releases no target emulates, and no versions at all.
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.0.1")), "none");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.4.0")), "none");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.10.0")), "none");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2")), "none");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("latest")), "none");
  EXPECT_EQ(NameOf(TargetOfReleaseTag("v2.1.x")), "none");
  EXPECT_EQ(ReleaseMinorOf(*FindTarget("trainer-v2.2")), "v2.2");
}

Diagnostic Removed(const char* field) {
  Diagnostic d = MakeError(Location{}, field, "field removed in Trainer v2.2.0 (replaced by spec.runtimePatches); x");
  d.rule = "upstream/error";
  return d;
}

TEST(Targets, OnlyErrorsOfRemovedFieldsHintAtTheOlderTarget) {
  Diagnostics only = {MakeWarning(Location{}, "field-pruned", "w"), Removed("spec.podTemplateOverrides"),
                      Removed("spec.labels")};
  ASSERT_TRUE(validate::IsRemovedFieldError(only[1]));
  EXPECT_TRUE(AddOlderTargetHint(&only));
  EXPECT_TRUE(only[1].message.ends_with("; x, or pass `--target trainer-v2.1` if the cluster runs v2.1"))
      << only[1].message;
  EXPECT_TRUE(only[2].message.ends_with("; x"));  // the first one only
  // Another error, even after them, means the target is not all that is wrong.
  Diagnostics mixed = {Removed("spec.podTemplateOverrides"),
                       MakeError(Location{}, "spec.trainer.numNodes", "Invalid value: -1")};
  EXPECT_FALSE(AddOlderTargetHint(&mixed));
  EXPECT_FALSE(mixed[0].message.ends_with("v2.1"));
  // Nor is an error at the same path with another message (a type error).
  Diagnostics typed = {MakeError(Location{}, "spec.labels", "Invalid value: \"array\": must be of type object")};
  EXPECT_FALSE(AddOlderTargetHint(&typed));
  Diagnostics none = {MakeWarning(Location{}, "field-pruned", "w")};
  EXPECT_FALSE(AddOlderTargetHint(&none));
}

}  // namespace
}  // namespace tjr::pipeline
