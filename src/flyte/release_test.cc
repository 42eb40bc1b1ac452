// The Flyte release table: one row per version, found by version and target.
#include "flyte/release.h"

#include <gtest/gtest.h>

#include <set>

namespace tjr::flyte {
namespace {

TEST(FlyteReleaseTest, EveryRowIsFoundByItsVersionAndItsTarget) {
  std::set<std::string_view> targets;
  for (const Release& release : Releases()) {
    EXPECT_TRUE(targets.insert(release.target).second) << release.target;
    EXPECT_EQ(&ReleaseOf(release.version), &release);
    EXPECT_EQ(VersionForTarget(release.target), release.version);
  }
  EXPECT_EQ(targets, (std::set<std::string_view>{"flyte-v1.16", "flyte-v2"}));
  EXPECT_EQ(VersionForTarget("flyte-v9"), std::nullopt);
  EXPECT_EQ(ReleaseOf(kDefaultVersion).target, "flyte-v1.16");
  // Flyte 2 has no flyteadmin: its tasks' resources come from the task alone.
  EXPECT_TRUE(ReleaseOf(Version::kV1_16).launched_by_flyteadmin);
  EXPECT_FALSE(ReleaseOf(Version::kV2).launched_by_flyteadmin);
}

}  // namespace
}  // namespace tjr::flyte
