#include "base/object_name.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr {
namespace {

TEST(ObjectNameTest, Dns1123Label) {
  for (std::string_view good : {"a", "0", "a-b", "a--b", "123-abc", "my-name"}) {
    EXPECT_TRUE(IsDns1123Label(good)) << good;
  }
  for (std::string_view bad : {"", "-a", "a-", "A", "a.b", "a_b", "a/b", ".."}) {
    EXPECT_FALSE(IsDns1123Label(bad)) << bad;
  }
  EXPECT_FALSE(IsDns1123Label(std::string_view("a\0b", 3)));
  EXPECT_TRUE(IsDns1123Label(std::string(63, 'a')));
  EXPECT_FALSE(IsDns1123Label(std::string(64, 'a')));
  EXPECT_TRUE(MatchesDns1123Label(std::string(64, 'a')));  // the regex alone has no bound
}

TEST(ObjectNameTest, Dns1123Subdomain) {
  for (std::string_view good : {"a", "a.b", "example.com", "a-1.b-2.c"}) {
    EXPECT_TRUE(IsDns1123Subdomain(good)) << good;
  }
  for (std::string_view bad : {"", ".", "a.", ".a", "a..b", "a/../b", "A.b", "a.-b"}) {
    EXPECT_FALSE(IsDns1123Subdomain(bad)) << bad;
  }
  EXPECT_TRUE(IsDns1123Subdomain(std::string(253, 'a')));
  EXPECT_FALSE(IsDns1123Subdomain(std::string(254, 'a')));
  // A 100 KB name: a linear scan, no recursion.
  EXPECT_TRUE(MatchesDns1123Subdomain(std::string(100000, 'a')));
}

}  // namespace
}  // namespace tjr
