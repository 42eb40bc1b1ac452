// The block-scalar shapes refused before libfyaml reads them differently
// from goyaml, checked on the text alone (block_scalar_test.cc reads them
// through ReadStream).
#include "yaml/block_scalar_check.h"

#include <gtest/gtest.h>

namespace tjr::yaml::input {
namespace {

// The refusal of the block scalar whose header ends the first line of
// `text`, its lines running to the end, under a collection at `parent`.
std::optional<BlockScalarRefusal> Check(std::string_view text, std::int64_t parent, bool folded = false) {
  return CheckBlockScalar(text, text.find('\n') + 1, text.size(), parent, folded);
}

TEST(IndentationIndicator, ReadsTheHeaderLine) {
  bool alone = false;
  EXPECT_EQ(IndentationIndicator("k: |2-\n  x\n", 7, &alone), 2);
  EXPECT_FALSE(alone);
  EXPECT_EQ(IndentationIndicator("k:\n  >  # c\n  x\n", 12, &alone), 0);
  EXPECT_TRUE(alone);
  EXPECT_EQ(IndentationIndicator("k: v\n", 5, &alone), -1);
}

TEST(CheckBlockScalar, WhatBothReadAlikeIsNotRefused) {
  EXPECT_FALSE(Check("k: |\n  a\n  b\n", 0));
  EXPECT_FALSE(Check("|\n root text\n", -1));
  EXPECT_FALSE(Check("k: >\n  a\n\n  b\n", 0, /*folded=*/true));
}

TEST(CheckBlockScalar, ALineNoDeeperThanItsCollectionIsRefusedThere) {
  // Under a mapping at column 2, the scalar's lines need 3 spaces.
  const std::string_view text = "b: |\n  c: 1\n";
  std::optional<BlockScalarRefusal> refusal = Check(text, 2);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->at, text.find("  c"));
  EXPECT_NE(refusal->message.find("at least 3 spaces here"), std::string::npos) << refusal->message;
}

TEST(CheckBlockScalar, FoldedMoreIndentedLineAfterAnEmptyLineIsRefused) {
  const std::string_view text = "k: >\n  x\n\n   y\n";
  std::optional<BlockScalarRefusal> refusal = Check(text, 0, /*folded=*/true);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->at, text.find("   y"));
  EXPECT_FALSE(Check(text, 0, /*folded=*/false));  // literal: read alike
}

TEST(CheckBlockScalar, RootScalarWithAnIndentedHeaderLineIsRefused) {
  std::optional<BlockScalarRefusal> refusal = Check("  |\n  x\n", -1);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->at, 2u);  // at the `|`
  EXPECT_NE(refusal->message.find("start that line at column 1"), std::string::npos);
}

}  // namespace
}  // namespace tjr::yaml::input
