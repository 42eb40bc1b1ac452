#include "gocompat/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr::gocompat {
namespace {

TEST(Utf8Test, DecodeRuneFollowsGo) {
  EXPECT_EQ(DecodeRune("\xc3\xa9").value, 0xE9u);
  EXPECT_EQ(DecodeRune("\xc0\x80").size, 1u);          // overlong
  EXPECT_EQ(DecodeRune("\xf4\x90\x80\x80").size, 1u);  // above U+10FFFF
  EXPECT_EQ(DecodeRune("\xf0\x9f\x98\x80").value, 0x1F600u);
  EXPECT_EQ(DecodeRune("\xed\xa0\x80").size, 1u);      // UTF-16 surrogate
  EXPECT_EQ(DecodeRune("").size, 0u);
  EXPECT_TRUE(IsInvalid(DecodeRune("\xe2\x82")));      // truncated
  EXPECT_FALSE(IsInvalid(DecodeRune("\xef\xbf\xbd")));  // a literal U+FFFD
  EXPECT_TRUE(IsValidUtf8("a\xc3\xa9"));
  EXPECT_FALSE(IsValidUtf8("a\xc3"));
}

TEST(Utf8Test, DecodeLastRuneFollowsGo) {
  EXPECT_EQ(DecodeLastRune("a\xc3\xa9").value, 0xE9u);
  EXPECT_EQ(DecodeLastRune("a\xc3\xa9").size, 2u);
  EXPECT_EQ(DecodeLastRune("\xf0\x9f\x98\x80").size, 4u);
  EXPECT_TRUE(IsInvalid(DecodeLastRune("1\xff")));
  EXPECT_TRUE(IsInvalid(DecodeLastRune("\xa9")));  // a lone continuation byte
  EXPECT_EQ(DecodeLastRune("").size, 0u);
}

TEST(Utf8Test, CoerceReplacesEachBadByte) {
  EXPECT_EQ(CoerceToValidUtf8("plain"), "plain");
  EXPECT_EQ(CoerceToValidUtf8("a\xff" "b"), "a\xef\xbf\xbd" "b");
  // Overlong NUL and a UTF-16 surrogate are invalid byte by byte in Go.
  EXPECT_EQ(CoerceToValidUtf8("\xc0\x80"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(CoerceToValidUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(CoerceToValidUtf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // truncated
  EXPECT_EQ(CoerceToValidUtf8("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
}

// IsValidUtf8 skips ASCII eight bytes at a time: a bad byte in any lane of
// a word, or in the tail after the last whole word, must still be found.
TEST(Utf8Test, ValidityIsCheckedInEveryPosition) {
  const std::string ascii = "abcdefghijklmnopqrstu";
  EXPECT_TRUE(IsValidUtf8(ascii));
  for (std::size_t at = 0; at < ascii.size(); ++at) {
    std::string bad = ascii;
    bad[at] = '\xff';
    EXPECT_FALSE(IsValidUtf8(bad)) << at;
    EXPECT_EQ(CoerceToValidUtf8(bad), ascii.substr(0, at) + "\xef\xbf\xbd" + ascii.substr(at + 1)) << at;
    std::string good = ascii;
    good.replace(at, 1, "\xc3\xa9");
    EXPECT_TRUE(IsValidUtf8(good)) << at;
    EXPECT_EQ(CoerceToValidUtf8(good), good) << at;
  }
}

TEST(Utf8Test, AppendUtf8EncodesEveryLength) {
  std::string out;
  for (char32_t cp : {U'A', U'\u00e9', U'\u20ac', U'\U0001F600'}) AppendUtf8(cp, &out);
  EXPECT_EQ(out, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}

TEST(Utf8Test, UnicodeSpaceIsGoUnicodeIsSpace) {
  for (char32_t c : {U'\t', U'\n', U'\v', U'\f', U'\r', U' ', U'\u0085', U'\u00a0', U'\u1680', U'\u2000',
                     U'\u200a', U'\u2028', U'\u2029', U'\u202f', U'\u205f', U'\u3000'}) {
    EXPECT_TRUE(IsUnicodeSpace(c)) << static_cast<unsigned>(c);
  }
  for (char32_t c : {U'a', U'{', U'\0', U'\u001c', U'\u200b', U'\ufeff', U'\u180e'}) {
    EXPECT_FALSE(IsUnicodeSpace(c)) << static_cast<unsigned>(c);
  }
  EXPECT_EQ(TrimLeftUnicodeSpace(" \t\xc2\xa0\xe3\x80\x80{x"), "{x");
  EXPECT_EQ(TrimLeftUnicodeSpace("\xef\xbb\xbf{"), "\xef\xbb\xbf{");  // a BOM is no space
  EXPECT_EQ(TrimLeftUnicodeSpace("\xc2 {"), "\xc2 {");                   // nor an invalid byte
  EXPECT_EQ(TrimLeftUnicodeSpace("  "), "");
}

}  // namespace
}  // namespace tjr::gocompat
