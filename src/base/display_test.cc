#include "base/display.h"

#include <gtest/gtest.h>

#include "base/diagnostic.h"

namespace tjr {
namespace {

TEST(DisplayTest, KeepsPlainNamesAndUtf8) {
  EXPECT_EQ(QuotedName("trainjobs/job.yaml"), "trainjobs/job.yaml");
  EXPECT_EQ(QuotedName("a b,c:d%0A.yaml"), "a b,c:d%0A.yaml");
  EXPECT_EQ(QuotedName("\xC3\xA9t\xC3\xA9/\xE6\x97\xA5.yaml"), "\xC3\xA9t\xC3\xA9/\xE6\x97\xA5.yaml");
  EXPECT_FALSE(NeedsQuoting("x::y.yaml"));
}

TEST(DisplayTest, QuotesNamesWithControlsAsGitDoes) {
  EXPECT_EQ(QuotedName("a\nb.yaml"), "\"a\\nb.yaml\"");
  EXPECT_EQ(QuotedName("a\rb\tc.yaml"), "\"a\\rb\\tc.yaml\"");
  EXPECT_EQ(QuotedName("\x1b[31mred.yaml"), "\"\\033[31mred.yaml\"");
  EXPECT_EQ(QuotedName("say \"hi\"\\.yaml"), "\"say \\\"hi\\\"\\\\.yaml\"");
  EXPECT_EQ(QuotedName("del\x7f.yaml"), "\"del\\177.yaml\"");
}

TEST(DisplayTest, EscapesBytesThatAreNotUtf8AndUnicodeControls) {
  EXPECT_EQ(QuotedName("bad\xff.yaml"), "\"bad\\377.yaml\"");
  EXPECT_EQ(QuotedName("cut\xE6\x97"), "\"cut\\346\\227\"");   // a truncated sequence
  EXPECT_EQ(QuotedName("over\xC0\xAF"), "\"over\\300\\257\"");  // an overlong '/'
  EXPECT_EQ(QuotedName("csi\xC2\x9B"), "\"csi\\302\\233\"");    // U+009B, a C1 CSI
  EXPECT_EQ(QuotedName("rlo\xE2\x80\xAEyaml"), "\"rlo\\342\\200\\256yaml\"");  // U+202E
}

TEST(DisplayTest, QuotesANameThatWouldStartAWorkflowCommand) {
  EXPECT_EQ(QuotedName("::error file=x::boom.yaml"), "\"::error file=x::boom.yaml\"");
  EXPECT_EQ(EscapedLine("::error file=x::boom"), "\\072:error file=x::boom");
  EXPECT_EQ(EscapedForDisplay("::x"), "::x");
}

TEST(DisplayTest, EscapesMessagesButKeepsQuotes) {
  EXPECT_EQ(EscapedForDisplay("value \"a\\b\"\nnext\x1b[2J"), "value \"a\\b\"\\nnext\\033[2J");
  EXPECT_EQ(EscapedForDisplay("plain: text"), "plain: text");
}

TEST(DisplayTest, KeepsVeryLongNamesWhole) {
  const std::string name(4000, 'n');
  EXPECT_EQ(QuotedName(name), name);
  EXPECT_EQ(QuotedName(name + "\n"), "\"" + name + "\\n\"");
}

TEST(DisplayTest, AFindingIsOneLineWhateverItsFileAndMessageHold) {
  Location at{InternSourceName("dir/a\nx.yaml:1:1: error: forged"), 3, 1};
  Diagnostic d = MakeError(at, "spec.x", "value \"\x1b[31m\" is not\na number");
  EXPECT_EQ(d.ToString(),
            "\"dir/a\\nx.yaml:1:1: error: forged\":3:1: error: spec.x: value \"\\033[31m\" is not\\na number");
  Location command{InternSourceName("::error file=x::boom.yaml"), 1, 1};
  EXPECT_EQ(MakeError(command, "", "m").ToString(), "\"::error file=x::boom.yaml\":1:1: error: m");
  EXPECT_EQ(command.ToString(), "\"::error file=x::boom.yaml\":1:1");
}

TEST(DisplayTest, PercentEncodesOnlyTheUnsafeBytesOfAToken) {
  EXPECT_EQ(PercentEncodedUnsafe("dir/plain-\xc3\xa9.yaml"), "dir/plain-\xc3\xa9.yaml");
  EXPECT_EQ(PercentEncodedUnsafe("\x1b[31mred.yaml"), "%1B[31mred.yaml");
  EXPECT_EQ(PercentEncodedUnsafe("bad\xff.yaml"), "bad%FF.yaml");
  EXPECT_EQ(PercentEncodedUnsafe("rtl\xe2\x80\xaext"), "rtl%E2%80%AExt");  // U+202E
  EXPECT_EQ(PercentEncodedUnsafe("tab\t"), "tab%09");
}

}  // namespace
}  // namespace tjr
