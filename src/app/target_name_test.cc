#include "app/target_name.h"

#include <gtest/gtest.h>

namespace tjr::app {
namespace {

TEST(TargetNameTest, ReleaseSpellingsNameTheTarget) {
  for (const char* spelling : {"trainer-v2.3", "trainer-v2.3.0", "v2.3", "v2.3.0", "2.3", "2.3.0"}) {
    EXPECT_EQ(CanonicalTarget(spelling), "trainer-v2.3") << spelling;
  }
  EXPECT_EQ(CanonicalTarget("v2.3.1"), "trainer-v2.3.1");
  EXPECT_EQ(CanonicalTarget("flyte-v2"), "flyte-v2");
}

TEST(TargetNameTest, AnUnsupportedTargetIsAUsageErrorListingTheSupportedOnes) {
  Result<std::string> supported = SupportedTarget("2.1.0");
  ASSERT_TRUE(supported.ok());
  EXPECT_EQ(*supported, "trainer-v2.1");
  Result<std::string> refused = SupportedTarget("v2.0", ", flyte-v1.16");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().ToString(),
            "error: unsupported target 'v2.0' (supported: trainer-v2.1, trainer-v2.2, trainer-v2.3, "
            "trainer-pr3199-preview, flyte-v1.16)");
  EXPECT_EQ(refused.error().category, Category::kInput);
}

}  // namespace
}  // namespace tjr::app
