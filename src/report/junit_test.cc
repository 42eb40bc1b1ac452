#include "report/junit.h"

#include <gtest/gtest.h>

namespace tjr::report {
namespace {

TEST(XmlEscapeTest, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(XmlEscape("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
  EXPECT_EQ(XmlEscape("]]>"), "]]&gt;");
}

TEST(XmlEscapeTest, WhitespaceKeptInTextButReferencedInAttributes) {
  EXPECT_EQ(XmlEscape("a\tb\nc\rd"), "a\tb\nc&#13;d");
  EXPECT_EQ(XmlEscapeAttribute("a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
}

TEST(XmlEscapeTest, CharactersXmlCannotCarryBecomeReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(XmlEscape(std::string("a\0b", 3)), "a" + fffd + "b");
  EXPECT_EQ(XmlEscape("\x1b[31m"), fffd + "[31m");
  EXPECT_EQ(XmlEscape("\xEF\xBF\xBE"), fffd);                   // U+FFFE
  EXPECT_EQ(XmlEscape("\xED\xA0\x80"), fffd + fffd + fffd);     // a surrogate
  EXPECT_EQ(XmlEscape("\xC0\xAF"), fffd + fffd);                // overlong '/'
  EXPECT_EQ(XmlEscape("\xE2\x82"), fffd + fffd);                // truncated
  EXPECT_EQ(XmlEscape("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
}

TEST(XmlEscapeTest, WellFormedUtf8IsKept) {
  EXPECT_EQ(XmlEscape("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \x7F"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \x7F");
}

TEST(WriteJunitTest, OneElementPerOutcome) {
  std::vector<JunitCase> cases = {
      {"merge/a", "conformance.merge", JunitCase::Status::kPassed, "", ""},
      {"merge/b", "conformance.merge", JunitCase::Status::kFailed, "output differs",
       "--- expected\n+++ actual\n-x: <1>\n"},
      {"merge/c", "conformance.merge", JunitCase::Status::kError, "bad \"case\"", ""},
      {"merge/d", "conformance.merge", JunitCase::Status::kSkipped, "expectation updated", ""},
  };
  EXPECT_EQ(WriteJunit("conformance", cases),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\">\n"
            "  <testsuite name=\"conformance\" tests=\"4\" failures=\"1\" errors=\"1\" "
            "skipped=\"1\">\n"
            "    <testcase name=\"merge/a\" classname=\"conformance.merge\"/>\n"
            "    <testcase name=\"merge/b\" classname=\"conformance.merge\">\n"
            "      <failure message=\"output differs\">--- expected\n+++ actual\n"
            "-x: &lt;1&gt;\n</failure>\n"
            "    </testcase>\n"
            "    <testcase name=\"merge/c\" classname=\"conformance.merge\">\n"
            "      <error message=\"bad &quot;case&quot;\"/>\n"
            "    </testcase>\n"
            "    <testcase name=\"merge/d\" classname=\"conformance.merge\">\n"
            "      <skipped message=\"expectation updated\"/>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "</testsuites>\n");
}

TEST(WriteJunitTest, EmptyRun) {
  EXPECT_EQ(WriteJunit("s", {}),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            "  <testsuite name=\"s\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            "  </testsuite>\n"
            "</testsuites>\n");
}

}  // namespace
}  // namespace tjr::report
