#include "gocompat/json_quote.h"

#include <gtest/gtest.h>

namespace tjr::gocompat {
namespace {

std::string Quoted(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

TEST(JsonQuoteTest, StringEscapingMatchesGo) {
  EXPECT_EQ(Quoted("plain"), "\"plain\"");
  EXPECT_EQ(Quoted("<a href=\"x\">&</a>"), R"("\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e")");
  EXPECT_EQ(Quoted("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(Quoted(std::string("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\x7f\"");
  EXPECT_EQ(Quoted("\\ /"), R"("\\ /")");
  EXPECT_EQ(Quoted("\xe2\x80\xa8\xe2\x80\xa9"), R"("\u2028\u2029")");
  EXPECT_EQ(Quoted("\xc3\xa9\xf0\x9f\x98\x80"), "\"\xc3\xa9\xf0\x9f\x98\x80\"");
  // Invalid UTF-8: each offending byte becomes \ufffd; valid U+FFFD stays raw.
  EXPECT_EQ(Quoted("a\xff\xe2\x82z\xef\xbf\xbd"), "\"a\\ufffd\\ufffd\\ufffdz\xef\xbf\xbd\"");
  EXPECT_EQ(Quoted("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // UTF-8 encoded surrogate
}

// encoding/json's HTML-safe string encoder escapes these and nothing else.
TEST(JsonQuoteTest, HasEscapes) {
  EXPECT_FALSE(JsonStringHasEscapes("1.5Gi"));
  EXPECT_FALSE(JsonStringHasEscapes("caf\xc3\xa9 \x7f"));
  for (std::string_view text : {"\"", "\\", "\t", "\x01", "<", ">", "&", "\xe2\x80\xa8",
                                "\xe2\x80\xa9", "\xff"}) {
    EXPECT_TRUE(JsonStringHasEscapes(text)) << text;
  }
}

TEST(JsonQuoteTest, CharsCountsEscapesAndCodePoints) {
  EXPECT_EQ(JsonStringChars(""), 0u);
  EXPECT_EQ(JsonStringChars("ab"), 2u);
  EXPECT_EQ(JsonStringChars("\"\n"), 4u);             // \" \n
  EXPECT_EQ(JsonStringChars("<\x01"), 12u);           // \u003c \u0001
  EXPECT_EQ(JsonStringChars("\xc3\xa9\xf0\x9f\x98\x80"), 2u);  // copied: one each
  EXPECT_EQ(JsonStringChars("\xe2\x80\xa8"), 6u);     // \u2028
  EXPECT_EQ(JsonStringChars("a\xff"), 7u);            // \ufffd
}

}  // namespace
}  // namespace tjr::gocompat
