#include "gocompat/fold.h"

#include <gtest/gtest.h>

namespace tjr::gocompat {
namespace {

TEST(FoldTest, AsciiCaseFolds) {
  EXPECT_TRUE(JsonNameEqualFold("nodeSelector", "NODESELECTOR"));
  EXPECT_TRUE(JsonNameEqualFold("containerPort", "CONTAINERPORT"));
  EXPECT_FALSE(JsonNameEqualFold("nodeSelector", "nodeSelecto"));
  EXPECT_FALSE(JsonNameEqualFold("name", "names"));
  EXPECT_FALSE(JsonNameEqualFold("name_x", "name-x"));
  // Only letters fold: '@' and '`' differ by the case bit but are not letters.
  EXPECT_FALSE(JsonNameEqualFold("a@", "A`"));
}

// bytes.EqualFold also folds K to the Kelvin sign and s to the long s.
TEST(FoldTest, KelvinSignAndLongS) {
  EXPECT_TRUE(JsonNameEqualFold("kind", "\xE2\x84\xAAind"));
  EXPECT_TRUE(JsonNameEqualFold("hostname", "ho\xC5\xBFtname"));
  EXPECT_TRUE(JsonNameEqualFold("spec", "\xc5\xbfpec"));
  EXPECT_FALSE(JsonNameEqualFold("name", "n\xC5\xBF" "me"));
  EXPECT_FALSE(JsonNameEqualFold("name", "n\xc3\xa4me"));
  EXPECT_FALSE(JsonNameEqualFold("kind", "\xff" "ind"));
}

TEST(FoldTest, NonAsciiFieldNamesMatchOnlyExactly) {
  EXPECT_TRUE(JsonNameEqualFold("caf\xc3\xa9", "caf\xc3\xa9"));
  EXPECT_FALSE(JsonNameEqualFold("caf\xc3\xa9", "CAF\xc3\xa9"));
}

}  // namespace
}  // namespace tjr::gocompat
