#include "source/glob.h"

#include <gtest/gtest.h>

namespace tjr::source {
namespace {

TEST(GlobMatchTest, ComponentsAndDoubleStar) {
  EXPECT_TRUE(GlobMatch("*.yaml", "a.yaml"));
  EXPECT_TRUE(GlobMatch("*.yaml", "deep/er/a.yaml"));  // unanchored: any depth
  EXPECT_FALSE(GlobMatch("*.yaml", "a.json"));
  EXPECT_TRUE(GlobMatch("jobs/*.yaml", "jobs/a.yaml"));
  EXPECT_FALSE(GlobMatch("jobs/*.yaml", "x/jobs/a.yaml"));  // anchored
  EXPECT_FALSE(GlobMatch("jobs/*.yaml", "jobs/sub/a.yaml"));  // * stays in one component
  EXPECT_TRUE(GlobMatch("jobs/**/*.yaml", "jobs/a.yaml"));
  EXPECT_TRUE(GlobMatch("jobs/**/*.yaml", "jobs/x/y/a.yaml"));
  EXPECT_TRUE(GlobMatch("/jobs/?.yaml", "jobs/a.yaml"));
  EXPECT_TRUE(GlobMatch("./jobs/[ab].yaml", "jobs/b.yaml"));
  EXPECT_FALSE(GlobMatch("./jobs/[ab].yaml", "jobs/c.yaml"));
  EXPECT_TRUE(GlobMatch("*", ".hidden.yaml"));
  EXPECT_FALSE(GlobMatch("", "a.yaml"));
}

TEST(GlobMatchTest, AFolderCoversItsContents) {
  for (const char* pattern : {"vendor", "vendor/", "vendor/**", "/vendor"}) {
    EXPECT_TRUE(GlobMatch(pattern, "vendor/a/b.yaml")) << pattern;
    EXPECT_FALSE(GlobMatch(pattern, "vendors/a.yaml")) << pattern;
  }
  EXPECT_TRUE(GlobMatch("vendor", "x/vendor/b.yaml"));
  EXPECT_FALSE(GlobMatch("/vendor", "x/vendor/b.yaml"));
}

TEST(PathFilterTest, IncludeThenExclude) {
  PathFilter none;
  EXPECT_TRUE(none.Accepts("anything.yaml"));
  PathFilter filter{{"jobs/**", "runtimes/*.yaml"}, {"**/*-draft.yaml", "jobs/old"}};
  EXPECT_TRUE(filter.Accepts("jobs/a.yaml"));
  EXPECT_TRUE(filter.Accepts("runtimes/torch.yaml"));
  EXPECT_FALSE(filter.Accepts("other/a.yaml"));
  EXPECT_FALSE(filter.Accepts("jobs/b-draft.yaml"));
  EXPECT_FALSE(filter.Accepts("jobs/old/c.yaml"));
  PathFilter exclude_only{{}, {"tests"}};
  EXPECT_FALSE(exclude_only.Accepts("a/tests/x.yaml"));
  EXPECT_TRUE(exclude_only.Accepts("a/x.yaml"));
}

}  // namespace
}  // namespace tjr::source
