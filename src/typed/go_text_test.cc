#include "typed/go_text.h"

#include <gtest/gtest.h>

namespace tjr::typed {
namespace {

TEST(GoTextTest, TrimUnicodeSpace) {
  EXPECT_EQ(TrimUnicodeSpace("  1 "), "1");
  EXPECT_EQ(TrimUnicodeSpace("\xc2\xa0" "1" "\xe3\x80\x80"), "1");  // NBSP, ideographic space
  EXPECT_EQ(TrimUnicodeSpace("\xc2\x85" "1"), "1");                   // NEL
  EXPECT_EQ(TrimUnicodeSpace("1\xe2\x80\x8b"), "1\xe2\x80\x8b");      // zero width space is not space
  EXPECT_EQ(TrimUnicodeSpace("1\xff"), "1\xff");
  EXPECT_EQ(TrimUnicodeSpace(" \t "), "");
}

TEST(GoTextTest, JsonNumberText) {
  EXPECT_EQ(*JsonNumberText(doc::Node::Int(-42)), "-42");
  EXPECT_EQ(*JsonNumberText(doc::Node::Float(1.0)), "1");
  EXPECT_EQ(*JsonNumberText(doc::Node::Float(1e21)), "1e+21");
  EXPECT_EQ(*JsonNumberText(doc::Node::Float(1e-7)), "1e-7");
}

}  // namespace
}  // namespace tjr::typed
