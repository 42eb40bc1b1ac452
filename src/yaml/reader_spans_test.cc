#include "yaml/reader_spans.h"

#include <gtest/gtest.h>

#include <string>

namespace tjr::yaml {
namespace {

std::string_view Slice(std::string_view text, const SpanNode& node) {
  return text.substr(node.begin, node.end - node.begin);
}

TEST(ReadSpans, BlockMappingEndsWithItsLastValueNotTheCommentsAfterIt) {
  const std::string text =
      "kind: TrainJob\n"
      "spec:\n"
      "  labels:\n"
      "    a: \"1\"  # quoted\n"
      "  # a comment\n"
      "\n"
      "  other: x\n";
  auto spans = ReadSpans(text, "f.yaml");
  ASSERT_TRUE(spans.ok()) << spans.error().ToString();
  ASSERT_EQ(spans->size(), 1u);
  const SpanNode* spec = &spans->front().Find("spec")->value;
  const SpanNode::Entry* labels = spec->Find("labels");
  ASSERT_NE(labels, nullptr);
  EXPECT_EQ(Slice(text, labels->key), "labels");
  EXPECT_EQ(Slice(text, labels->value), "a: \"1\"");
  EXPECT_EQ(Slice(text, labels->value.entries[0].value), "\"1\"");
  EXPECT_EQ(labels->value.line, 4u);
  EXPECT_EQ(labels->value.column, 5u);
  EXPECT_FALSE(labels->value.flow);
  EXPECT_EQ(Slice(text, *spec), "labels:\n    a: \"1\"  # quoted\n  # a comment\n\n  other: x");
}

TEST(ReadSpans, FlowCollectionsQuotesAnchorsAndBlockScalars) {
  const std::string text =
      "a: {b: [1, 'two'], c: &x d}\n"
      "e: |\n"
      "  line\n"
      "\n"
      "f: *x\n";
  auto spans = ReadSpans(text, "f.yaml");
  ASSERT_TRUE(spans.ok());
  const SpanNode& root = spans->front();
  const SpanNode& a = root.Find("a")->value;
  EXPECT_TRUE(a.flow);
  EXPECT_EQ(Slice(text, a), "{b: [1, 'two'], c: &x d}");
  EXPECT_EQ(Slice(text, a.Find("b")->value), "[1, 'two']");
  EXPECT_EQ(Slice(text, a.Find("b")->value.items[1]), "'two'");
  EXPECT_EQ(Slice(text, a.Find("c")->value), "&x d");
  EXPECT_EQ(Slice(text, root.Find("e")->value), "|\n  line");
  EXPECT_EQ(Slice(text, root.Find("f")->value), "*x");
}

TEST(ReadSpans, NestedFlowCollectionsEndAtTheirOwnCloser) {
  const std::string text = "a: {b: [{c: {d: e}}], f: {g: \"h\"}}\n";
  auto spans = ReadSpans(text, "f.yaml");
  ASSERT_TRUE(spans.ok());
  const SpanNode& a = spans->front().Find("a")->value;
  EXPECT_EQ(Slice(text, a.Find("b")->value), "[{c: {d: e}}]");
  EXPECT_EQ(Slice(text, a.Find("b")->value.items[0].Find("c")->value), "{d: e}");
  EXPECT_EQ(Slice(text, a.Find("f")->value), "{g: \"h\"}");
  EXPECT_EQ(Slice(text, a), "{b: [{c: {d: e}}], f: {g: \"h\"}}");
}

TEST(ReadSpans, DocumentsAreCutAsKubectlCutsThemWithStreamOffsets) {
  const std::string text = "a: 1\r\n---\r\n# only a comment\r\n---\r\nb:\r\n- x\r\n- y\r\n";
  auto spans = ReadSpans(text, "f.yaml");
  ASSERT_TRUE(spans.ok());
  ASSERT_EQ(spans->size(), 2u);
  const SpanNode& b = (*spans)[1].Find("b")->value;
  EXPECT_EQ(Slice(text, b), "- x\r\n- y");
  EXPECT_EQ((*spans)[1].line, 5u);
  EXPECT_EQ(b.line, 6u);
}

TEST(ReadSpans, MalformedInputIsAnError) {
  EXPECT_FALSE(ReadSpans("a: [1, 2\n", "f.yaml").ok());
}

}  // namespace
}  // namespace tjr::yaml
