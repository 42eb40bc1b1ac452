#include "yaml/libfyaml_guard.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "yaml/reader_spans.h"
#include "yaml/reader_test_util.h"
#include "testkit/temp_dir.h"

namespace tjr::yaml::input {
namespace {

TEST(LibfyamlGuard, FindsTheExplicitKeyTabShapes) {
  // Each of these crashed libfyaml 0.7.12 (SIGSEGV in fy_parser_destroy).
  for (std::string_view text :
       {"? a:\t>\n", "? a:\t|\n", "? a:\t>-\n  x\n: b\n", "? a:\t\t>\n", "? a: \t>\n", "?   a:\t>\n",
        "? a:\t- x\n", "? a:\t? x\n", "? a:\t?x\n", "? a:\t: x\n", "? a:\t>x\n", "? 'a':\t>\n",
        "? \"a\\\"\":\t>\n", "? a'b:\t>\n", "? [a]:\t>\n", "? {a: b}:\t>\n", "x:\n  ? a:\t>\n",
        "- ? a:\t>\n", "- - ? a:\t>\n", "? c[:\t>\n", "?\r i? i:\t:\t", "? css\"PATH\", \"valus[:\t>\n", "?\r\n a:\t>\r\n", "?\n a:\t>\n", "?\n ::\t?\n", "? # c\n\n  a:\t|\n", "- ?\n  - a:\t>\n", "? ac[\"\"x:\t>-\n", "- ? b\n  ? a:\t- x\n", "---\n? a:\t|\n", "? a:\t>\r\n"}) {
    EXPECT_TRUE(FindExplicitKeyTabCrash(text).has_value()) << text;
  }
  EXPECT_EQ(FindExplicitKeyTabCrash("x: 1\n  ? a:\t>\n")->at, 9u);  // the key's first byte
  EXPECT_FALSE(FindExplicitKeyTabCrash("? a:\t>\n")->sequence);
  EXPECT_TRUE(FindExplicitKeyTabCrash("? - a:\t>\n")->sequence);
  EXPECT_TRUE(FindExplicitKeyTabCrash("?\n  - a:\t>\n")->sequence);
  EXPECT_FALSE(FindExplicitKeyTabCrash("- ? a:\t>\n")->sequence);
}

TEST(LibfyamlGuard, LeavesOtherTextAlone) {
  for (std::string_view text :
       {"a:\t>\n  x\n", "- a:\t>\n", "? a: >\n", "? a:\tx\n", "? a:\t'x'\n", "? a:\t-x\n", "? x\n: a:\t>\n",
        "? 'a:\t>'\n", "? \"a:\t>\"\n", "? a # c:\t>\n", "? [a:\t>]\n", "? a:\n\t>\n", "k: ? a:\t>\n",
        "? 'it''s:\t>'\n", ""}) {
    EXPECT_FALSE(FindExplicitKeyTabCrash(text).has_value()) << text;
  }
}

TEST(LibfyamlGuard, WiderNetNeedsBothAnExplicitKeyAndATabBeforeAnIndicator) {
  // Shapes FindExplicitKeyTabCrash misses; the first crashed libfyaml
  // 0.7.12 (SIGSEGV in fy_indent_vacuum_internal, a fuzz campaign).
  for (std::string_view text : {"? y #\n g:\t>", "? a\n  b:\t|\n", "x: [? a]\ny:\t>\n", "k:\t-\n? a\n"}) {
    EXPECT_TRUE(FindTabIndicatorWithExplicitKey(text).has_value()) << text;
  }
  EXPECT_EQ(*FindTabIndicatorWithExplicitKey("? y #\n g:\t>"), 8u);  // the ':'
  for (std::string_view text : {"a:\t>\n  x\n", "? a\n: b\n", "url: http://x?y=1\nk:\t|\n  x\n", "? a:  >\n",
                                "a: b\t>\n? c\n", ""}) {
    EXPECT_FALSE(FindTabIndicatorWithExplicitKey(text).has_value()) << text;
  }
}

std::string ReadCorpus(const std::string& name) {
  std::ifstream in(testkit::SourcePath("fuzz/corpus/yaml_reader/" + name), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Both libfyaml readers refuse the fuzzed stream (three documents) with
// goyaml's reason, located at the key, instead of crashing.
TEST(LibfyamlGuard, ReadersRefuseTheFuzzedCrash) {
  const std::string text = ReadCorpus("libfyaml-explicit-key-tab-fuzzed");
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(read_test::ErrorOf(text), "in.yaml:23:3: error: invalid map key: a mapping cannot be a key");
  EXPECT_EQ(read_test::ErrorOf(ReadCorpus("libfyaml-explicit-key-tab-minimal")),
            "in.yaml:1:3: error: invalid map key: a mapping cannot be a key");
  EXPECT_FALSE(ReadSpans(text, "in.yaml").ok());
  // A lone CR ends the `?` line as LF does, and counts as a line as goyaml
  // counts it ("yaml: line 2: mapping values are not allowed").
  EXPECT_EQ(read_test::ErrorOf(ReadCorpus("libfyaml-explicit-key-tab-after-cr-fuzzed")),
            "in.yaml:2:2: error: invalid map key: a mapping cannot be a key");
  // A byte order mark before the key: libfyaml skips it, and so does the
  // guard (the yaml_determinism finding of 2026-11-27 crashed the process).
  const std::string after_bom = ReadCorpus("libfyaml-explicit-key-tab-after-bom-fuzzed");
  ASSERT_TRUE(after_bom.starts_with("\xEF\xBB\xBF? HH:\t|"));
  EXPECT_EQ(read_test::ErrorOf(after_bom), "in.yaml:1:3: error: invalid map key: a mapping cannot be a key");
  EXPECT_FALSE(ReadSpans(after_bom, "in.yaml").ok());
  EXPECT_TRUE(FindExplicitKeyTabCrash("\xEF\xBB\xBF? a:\t|\n "));
  EXPECT_TRUE(FindExplicitKeyTabCrash("x: 1\n---\n\xEF\xBB\xBF? a:\t|\n "));
  EXPECT_TRUE(FindTabIndicatorWithExplicitKey("\xEF\xBB\xBF?\n  a:\t|\n "));
  // `[` inside the key's plain scalar opens no flow collection.
  EXPECT_EQ(read_test::ErrorOf(ReadCorpus("libfyaml-explicit-key-tab-after-bracket-fuzzed")),
            "in.yaml:5:3: error: invalid map key: a mapping cannot be a key");
  EXPECT_EQ(read_test::ErrorOf(ReadCorpus("libfyaml-explicit-key-tab-after-bracket-minimal")),
            "in.yaml:1:3: error: invalid map key: a mapping cannot be a key");
  // A comment ends the key's line and the key's mapping goes on below.
  EXPECT_EQ(read_test::ErrorOf(ReadCorpus("libfyaml-explicit-key-comment-then-tab-minimal")),
            std::string("in.yaml:2:3: error: ") + kTabIndicatorWithExplicitKey);
  EXPECT_NE(read_test::ErrorOf(ReadCorpus("libfyaml-explicit-key-comment-then-tab-fuzzed")).find(kTabIndicatorWithExplicitKey),
            std::string::npos);
  EXPECT_FALSE(ReadSpans(ReadCorpus("libfyaml-explicit-key-comment-then-tab-minimal"), "in.yaml").ok());
}

}  // namespace
}  // namespace tjr::yaml::input
