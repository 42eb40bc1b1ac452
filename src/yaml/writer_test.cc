// Writer behaviour kubectl never shows (it prints only objects, and only
// valid UTF-8 reaches its printer), with expectations worked out from
// goyaml v2's emitter and encoding/json.

#include "yaml/writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tjr::yaml {
namespace {

doc::Node Map(std::vector<std::pair<std::string, doc::Node>> fields) {
  doc::Node map = doc::Node::Mapping();
  for (auto& [key, value] : fields) map.Set(key, value);
  return map;
}

doc::Node Seq(std::vector<doc::Node> items) {
  doc::Node seq = doc::Node::Sequence();
  for (auto& item : items) seq.push_back(item);
  return seq;
}

doc::Node Str(std::string s) { return doc::Node::String(std::move(s)); }

// The root node starts at indentation -1: collections at column 0, scalar
// continuation lines at 2; the document ends with the current line.
TEST(WriterTest, RootValues) {
  EXPECT_EQ(Write(doc::Node::Null()), "null\n");
  EXPECT_EQ(Write(doc::Node::Int(5)), "5\n");
  EXPECT_EQ(Write(Str("foo")), "foo\n");
  EXPECT_EQ(Write(Str("")), "\"\"\n");
  EXPECT_EQ(Write(Str("a\nb")), "|-\n  a\n  b\n");
  EXPECT_EQ(Write(Str("a\n")), "|\n  a\n");
  EXPECT_EQ(Write(doc::Node::Mapping()), "{}\n");
  EXPECT_EQ(Write(doc::Node::Sequence()), "[]\n");
  EXPECT_EQ(Write(Seq({Str("a"), Seq({Str("b"), Str("c")}), Map({{"k", Str("v")}})})),
            "- a\n- - b\n  - c\n- k: v\n");
}

TEST(WriterTest, RootPlainScalarFoldsAtIndentTwo) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += "word ";
  text += "end";
  EXPECT_EQ(Write(Str(text)),
            "word word word word word word word word word word word word word word word word "
            "word\n  word word word end\n");
}

TEST(WriterTest, AppendsToOutput) {
  std::string out = "# head\n";
  Write(Map({{"a", doc::Node::Bool(true)}}), &out);
  EXPECT_EQ(out, "# head\na: true\n");
}

// kubectl's YAML printer writes "---" before every object after the first.
TEST(WriterTest, StreamSeparatesObjects) {
  EXPECT_EQ(WriteStream({}), "");
  EXPECT_EQ(WriteStream({Map({{"a", doc::Node::Int(1)}})}), "a: 1\n");
  EXPECT_EQ(WriteStream({Map({{"a", doc::Node::Int(1)}}), Map({{"b", Str("x\n")}}),
                         Map({{"c", doc::Node::Mapping()}})}),
            "a: 1\n---\nb: |\n  x\n---\nc: {}\n");
}

// encoding/json writes each byte of invalid UTF-8 as U+FFFD, which goyaml
// then prints raw (it is printable).
TEST(WriterTest, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(Write(Map({{"k", Str("a\xFF"
                                 "b")}})),
            "k: a\xEF\xBF\xBD"
            "b\n");
  EXPECT_EQ(Write(Map({{"k", Str("\xE2\x82")}})), "k: \xEF\xBF\xBD\xEF\xBF\xBD\n");
  EXPECT_EQ(Write(Map({{"k", Str("\xED\xA0\x80")}})),
            "k: \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\n");                            // a surrogate
  EXPECT_EQ(Write(Map({{"\xC0\xAF", Str("v")}})), "\xEF\xBF\xBD\xEF\xBF\xBD: v\n");  // overlong
}

// Two keys that encoding/json writes alike are one key to goyaml: the value
// written last (the bytewise greatest original key) wins.
TEST(WriterTest, KeysMergedByTheJsonStep) {
  const std::string merged = "a\xEF\xBF\xBD: ";
  EXPECT_EQ(Write(Map({{"a\xFE", Str("fe")}, {"a\xFF", Str("ff")}, {"b", Str("b")}})),
            merged + "ff\nb: b\n");
  EXPECT_EQ(Write(Map({{"a\xFF", Str("ff")}, {"a\xFE", Str("fe")}})), merged + "ff\n");
}

}  // namespace
}  // namespace tjr::yaml
