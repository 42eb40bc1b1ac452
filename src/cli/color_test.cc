#include "cli/color.h"

#include <gtest/gtest.h>

namespace tjr::cli {
namespace {

TEST(ColorWanted, AlwaysAndNeverDecide) {
  EXPECT_TRUE(ColorWanted("always", false, "1", "dumb"));
  EXPECT_FALSE(ColorWanted("never", true, nullptr, "xterm"));
}

TEST(ColorWanted, AutoColoursATerminalUnlessNoColorOrADumbTerminal) {
  EXPECT_TRUE(ColorWanted("auto", true, nullptr, "xterm-256color"));
  EXPECT_TRUE(ColorWanted("auto", true, nullptr, nullptr));
  EXPECT_TRUE(ColorWanted("auto", true, "", "xterm")) << "an empty NO_COLOR is unset";
  EXPECT_FALSE(ColorWanted("auto", false, nullptr, "xterm")) << "a pipe or file";
  EXPECT_FALSE(ColorWanted("auto", true, "1", "xterm"));
  EXPECT_FALSE(ColorWanted("auto", true, nullptr, "dumb"));
}

}  // namespace
}  // namespace tjr::cli
