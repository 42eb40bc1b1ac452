#include "yaml/scalar_style.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr::yaml::detail {
namespace {

// IsWord checks eight bytes at a time: a space, control, DEL or non-ASCII
// byte must be found in any lane of a word and in the tail after it.
TEST(ScalarStyleTest, IsWordChecksEveryByte) {
  const std::string word = "trainer.kubeflow.org/x";
  EXPECT_TRUE(IsWord(word));
  EXPECT_FALSE(IsWord(""));
  for (char bad : {' ', '\t', '\n', '\x7f', '\x80', '\xff', '\x20', '\x01'}) {
    for (std::size_t at = 0; at < word.size(); ++at) {
      std::string s = word;
      s[at] = bad;
      EXPECT_FALSE(IsWord(s)) << at << " " << static_cast<int>(bad);
    }
  }
  EXPECT_TRUE(IsWord("!~!~!~!~!~"));  // the ends of the printable range
}

}  // namespace
}  // namespace tjr::yaml::detail
