#include "yaml/colon_key_mask.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json.h"
#include "yaml/reader_spans.h"
#include "yaml/reader_test_util.h"
#include "yaml/writer.h"

namespace tjr::yaml::input {
namespace {

using read_test::ErrorOf;
using read_test::ReadOne;

// JSON with sorted keys.
std::string Json(std::string_view text) { return json::Write(ReadOne(text), false); }

TEST(ColonKeyMask, FindsColonsThatStartAPlainScalar) {
  EXPECT_EQ(FindLineLeadingColons(":x\n  :y\n"), (std::vector<std::size_t>{0, 5}));
  EXPECT_EQ(FindLineLeadingColons("a\n:\"b\": 1"), (std::vector<std::size_t>{2}));
  // A ':' before a blank or a line break is a value indicator; a tab is not
  // indentation; a ':' inside a line is not at its start.
  EXPECT_TRUE(FindLineLeadingColons(": x\n:\n:\r\n:\t1\n\t:x\na:b\n:").empty());
  const ColonMaskedText masked = MaskColons("k:\n:x: 1\n", {3});
  EXPECT_EQ(masked.text, "k:\nxx: 1\n");
  EXPECT_EQ(masked.sites, (std::vector<std::size_t>{3}));
}

// Each text is refused by libfyaml 0.7.12 as it stands ("invalid multiline
// plain key"); the values are goyaml v2's (sigs.k8s.io/yaml's fork, which
// kubectl uses), read with it offline.
TEST(ColonKeyMask, ReadsAColonKeyAfterAMultiLinePlainValueAsGoyamlDoes) {
  EXPECT_EQ(Json("b: x y\n  z\n:zone: x\n"), R"({":zone":"x","b":"x y z"})");
  EXPECT_EQ(Json("b:\n- x y\n  z\n:zone: x\n"), R"({":zone":"x","b":["x y z"]})");
  EXPECT_EQ(Json("- b: x y\n    z\n  :zone: x\n"), R"([{":zone":"x","b":"x y z"}])");
  EXPECT_EQ(Json("c: x y\n  z\n:zone: p q\n  r\n:w: 1\n"), R"({":w":1,":zone":"p q r","c":"x y z"})");
  // libfyaml formats a non-ASCII scalar's value itself: it gets its ':' too.
  EXPECT_EQ(Json("b: x y\n  z\n:z\xc3\xb6ne: x\n"), "{\":z\xc3\xb6ne\":\"x\",\"b\":\"x y z\"}");
  // The key is a string, never the int or bool its tail would be.
  EXPECT_EQ(Json("b: x y\n  z\n:1: x\n:true: w\n"), R"({":1":"x",":true":"w","b":"x y z"})");
}

TEST(ColonKeyMask, LeavesColonLinesInsideScalarsAsTheyAre) {
  // A ':' line in a block scalar, a plain scalar's continuation or a quoted
  // scalar is text: masked in the first read, it is not in the second.
  EXPECT_EQ(Json("b: |\n  :lit\nc: x y\n  z\n:zone: x\n"), R"({":zone":"x","b":":lit\n","c":"x y z"})");
  EXPECT_EQ(Json("b: x\n  :cont\nc: x y\n  z\n:zone: x\n"), R"({":zone":"x","b":"x :cont","c":"x y z"})");
  EXPECT_EQ(Json("c: \"x\n  :q\"\nd: x y\n  z\n:zone: x\n"), R"({":zone":"x","c":"x :q","d":"x y z"})");
}

TEST(ColonKeyMask, StillRefusesWhatGoyamlRefuses) {
  // An empty key after a multi-line value: goyaml refuses it too.
  EXPECT_NE(ErrorOf("b: x y\n  z\n: x\n").find("invalid multiline plain key"), std::string::npos);
  // A ':' line in a flow sequence is a value indicator to goyaml.
  EXPECT_FALSE(read_test::Read("f: [a,\n :b]\nc: x y\n  z\n:zone: x\n").ok());
}

// The hint about ':' lines is added only when the refused ':' starts a
// line; an unindented `${VAR}` line before a key (an unrendered template)
// is a multi-line key too, and the hint would send its reader the wrong way.
TEST(ColonKeyMask, HintsAboutColonLinesOnlyForThem) {
  const std::string hint = "refuses a line that starts with ':'";
  EXPECT_NE(ErrorOf("b: x y\n  z\n: x\n").find(hint), std::string::npos);
  EXPECT_NE(ErrorOf("a:\n  b: x y\n    z\n  : x\n").find(hint), std::string::npos);
  const std::string unrendered = ErrorOf("a:\n  b: x\n${EXTRA}\n  c: d\n");
  EXPECT_NE(unrendered.find("invalid multiline plain key"), std::string::npos) << unrendered;
  EXPECT_EQ(unrendered.find(hint), std::string::npos) << unrendered;
  EXPECT_EQ(ErrorOf("a:\n  b: x\nmore words # c: d\n  c: d\n").find(hint), std::string::npos);
}

TEST(ColonKeyMask, FindsTheColonLibfyamlRefuses) {
  EXPECT_TRUE(RefusalIsAColonLine("x y\n  z\n: x\n", 0));
  EXPECT_TRUE(RefusalIsAColonLine("x y\n  z\n  :zone: x\n", 0));
  EXPECT_FALSE(RefusalIsAColonLine("${EXTRA}\n  c: d\n", 0));
  EXPECT_FALSE(RefusalIsAColonLine("x # : y\nc: d\n", 0));
  EXPECT_FALSE(RefusalIsAColonLine("x y\n", 0));
  // Marks count characters from 1; a line's end clamps the column.
  EXPECT_EQ(OffsetOfMark("a: b\n\xc3\xb6: x y\n", 2, 4), 9u);
  EXPECT_EQ(OffsetOfMark("a\nb\n", 2, 9), 3u);
  EXPECT_EQ(OffsetOfMark("a\n", 5, 1), 2u);
}

TEST(ColonKeyMask, WhatTheWriterPrintsReadsBack) {
  // fuzz/corpus/yaml_writer_roundtrip/colon-key-after-folded-plain-minimal:
  // the writer folds the long value and prints the key unquoted, as goyaml
  // does.
  const std::string text =
      "a:\n  \"*\": this is a fairly long annotation value with many words that goes well past the "
      "eighty column limit of the emitter\n  \":\\\"zone\\\"\": x\n";
  const doc::Node tree = ReadOne(text);
  const std::string written = Write(tree);
  EXPECT_NE(written.find("\n  :\"zone\": x\n"), std::string::npos) << written;
  EXPECT_EQ(json::Write(ReadOne(written), false), json::Write(tree, false));
}

TEST(ColonKeyMask, SpansReadTheSameKeys) {
  Result<std::vector<SpanNode>> spans = ReadSpans("b: x y\n  z\n:zone: x\n", "in.yaml");
  ASSERT_TRUE(spans.ok()) << spans.error().ToString();
  ASSERT_EQ(spans->size(), 1u);
  const SpanNode& root = spans->front();
  ASSERT_EQ(root.entries.size(), 2u);
  EXPECT_EQ(root.entries[1].key.text, ":zone");
  EXPECT_EQ(root.entries[1].key.begin, 11u);
  EXPECT_EQ(root.entries[1].key.end, 16u);
  EXPECT_EQ(root.entries[1].value.text, "x");
  Result<std::vector<SpanNode>> block = ReadSpans("b: |\n  :lit\nc: x y\n  z\n:zone: x\n", "in.yaml");
  ASSERT_TRUE(block.ok());
  EXPECT_EQ(block->front().entries[0].value.text, ":lit\n");
  EXPECT_EQ(block->front().entries[2].key.text, ":zone");
}

}  // namespace
}  // namespace tjr::yaml::input
