#include "gocompat/bom.h"

#include <gtest/gtest.h>

namespace tjr::gocompat {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

TEST(BomTest, OnlyUtf16MarksAreDecoded) {
  EXPECT_FALSE(DecodeUtf16WithBom("a: b\n"));
  EXPECT_FALSE(DecodeUtf16WithBom("\xEF\xBB\xBF" "a: b\n"));  // UTF-8's mark: goyaml skips it
  EXPECT_FALSE(DecodeUtf16WithBom(Bytes({0xFF})));
}

TEST(BomTest, BothByteOrders) {
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 'a', 0, ':', 0, 0xE9, 0, '\n', 0})), "a:\xC3\xA9\n");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFE, 0xFF, 0, 'a', 0x20, 0xAC})), "a\xE2\x82\xAC");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE})), "");
}

// Each answer is x/text v0.7.0's (unicode.BOMOverride(unicode.UTF8.NewDecoder()),
// Debian's golang-golang-x-text-dev, go1.19).
TEST(BomTest, SurrogatesAsXTextDecodesThem) {
  // U+1F600 as a pair; a lone high, a lone low and a last odd byte: U+FFFD.
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 0x3D, 0xD8, 0x00, 0xDE})), "\xF0\x9F\x98\x80");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 0x3D, 0xD8, 'a', 0})), "\xEF\xBF\xBD" "a");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 0x00, 0xDE})), "\xEF\xBF\xBD");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 0x00, 0xDE, 0x00, 0xDE, 'a', 0})), "\xEF\xBF\xBD" "a");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 'a', 0, 'b'})), "a\xEF\xBF\xBD");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 0x3D, 0xD8, 0x3D, 0xD8, 0x00, 0xDE})), "\xEF\xBF\xBD\xF0\x9F\x98\x80");
  EXPECT_EQ(DecodeUtf16WithBom(Bytes({0xFF, 0xFE, 0x3D, 0xD8})), "\xEF\xBF\xBD");
}

}  // namespace
}  // namespace tjr::gocompat
