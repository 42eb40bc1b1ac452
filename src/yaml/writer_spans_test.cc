// WriteWithSpans: which bytes of the output hold which node of the tree.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "yaml/writer.h"

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
doc::Node Int(int i) { return doc::Node::Int(i); }

const char* StyleName(WrittenStyle style) {
  switch (style) {
    case WrittenStyle::kNone: return "-";
    case WrittenStyle::kPlain: return "plain";
    case WrittenStyle::kSingleQuoted: return "single";
    case WrittenStyle::kDoubleQuoted: return "double";
    case WrittenStyle::kLiteral: return "literal";
  }
  return "?";
}

// The spans' keys point into the tree: every test keeps its tree alive
// while it reads them.

// One line per span: "PARENT KEY-OR-#INDEX STYLE: TEXT" (the root's parent
// and a key's index print as "^" and nothing).
std::vector<std::string> Describe(const std::string& out, const std::vector<WrittenSpan>& spans) {
  std::vector<std::string> lines;
  for (const WrittenSpan& span : spans) {
    std::string line = span.parent == WrittenSpan::npos ? "^" : std::to_string(span.parent);
    line += ' ';
    line += span.index == WrittenSpan::npos ? std::string(span.key) : "#" + std::to_string(span.index);
    line += ' ';
    line += StyleName(span.style);
    line += ": ";
    line += out.substr(span.begin, span.end - span.begin);
    lines.push_back(line);
  }
  return lines;
}

struct Written {
  std::string out;
  std::vector<WrittenSpan> spans;
};

Written WriteObserved(const doc::Node& root) {
  Written written;
  WriteWithSpans(root, &written.out, &written.spans);
  EXPECT_EQ(written.out, Write(root));
  return written;
}

TEST(WriterSpansTest, NestedMappingsInSortedKeyOrder) {
  const doc::Node root =
      Map({{"b", Map({{"w", Int(1)}, {"v", Str("s")}})}, {"a10", Int(2)}, {"a9", Int(3)}});
  const Written w = WriteObserved(root);
  EXPECT_EQ(w.out, "a9: 3\na10: 2\nb:\n  v: s\n  w: 1\n");
  EXPECT_EQ(Describe(w.out, w.spans),
            (std::vector<std::string>{"^  -: a9: 3\na10: 2\nb:\n  v: s\n  w: 1",
                                      "0 a9 plain: 3",
                                      "0 a10 plain: 2",
                                      "0 b -: v: s\n  w: 1",
                                      "3 v plain: s",
                                      "3 w plain: 1"}));
  // Each span names its node in the tree and its key as the tree holds it.
  EXPECT_EQ(w.spans[0].node, &root);
  EXPECT_EQ(w.spans[3].node, root.Find("b"));
  EXPECT_EQ(w.spans[3].key.data(), root.fields()[0].key.data());
  EXPECT_EQ(w.spans[5].node, root.Find("b")->Find("w"));
}

TEST(WriterSpansTest, ListsOfMappings) {
  const doc::Node root =
      Map({{"env", Seq({Map({{"value", Str("1")}, {"name", Str("A")}}), Map({{"name", Str("B")}})})},
           {"args", Seq({Str("--x"), Seq({Int(1), Int(2)})})}});
  const Written w = WriteObserved(root);
  EXPECT_EQ(w.out,
            "args:\n- --x\n- - 1\n  - 2\nenv:\n- name: A\n  value: \"1\"\n- name: B\n");
  EXPECT_EQ(Describe(w.out, w.spans),
            (std::vector<std::string>{
                "^  -: args:\n- --x\n- - 1\n  - 2\nenv:\n- name: A\n  value: \"1\"\n- name: B",
                "0 args -: - --x\n- - 1\n  - 2",
                "1 #0 plain: --x",
                "1 #1 -: - 1\n  - 2",
                "3 #0 plain: 1",
                "3 #1 plain: 2",
                "0 env -: - name: A\n  value: \"1\"\n- name: B",
                "6 #0 -: name: A\n  value: \"1\"",
                "7 name plain: A",
                "7 value double: \"1\"",
                "6 #1 -: name: B",
                "10 name plain: B"}));
  EXPECT_EQ(w.spans[7].node, &(*root.Find("env"))[0]);
}

TEST(WriterSpansTest, EmptyCollectionsAndRootScalars) {
  const doc::Node root = Map({{"m", doc::Node::Mapping()}, {"l", doc::Node::Sequence()},
                              {"q", Str("it's: here")}, {"nil", doc::Node::Null()}});
  const Written w = WriteObserved(root);
  EXPECT_EQ(Describe(w.out, w.spans),
            (std::vector<std::string>{"^  -: l: []\nm: {}\nnil: null\nq: 'it''s: here'",
                                      "0 l -: []", "0 m -: {}", "0 nil plain: null",
                                      "0 q single: 'it''s: here'"}));
  const Written empty = WriteObserved(doc::Node::Sequence());
  EXPECT_EQ(Describe(empty.out, empty.spans), (std::vector<std::string>{"^  -: []"}));
  const Written scalar = WriteObserved(Str("x"));
  EXPECT_EQ(Describe(scalar.out, scalar.spans), (std::vector<std::string>{"^  plain: x"}));
}

TEST(WriterSpansTest, FoldedScalarSpansItsLines) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += "word ";
  text += "end";
  const doc::Node root = Map({{"k", Str(text)}, {"z", Int(1)}});
  const Written w = WriteObserved(root);
  EXPECT_EQ(Describe(w.out, w.spans)[1],
            "0 k plain: word word word word word word word word word word word word word word "
            "word word\n  word word word word end");
  EXPECT_EQ(Describe(w.out, w.spans)[2], "0 z plain: 1");
}

TEST(WriterSpansTest, LiteralBlockEndsWithItsLineBreak) {
  const doc::Node root =
      Map({{"script", Str("echo a\necho b\n")}, {"strip", Str("x\ny")}, {"tail", Int(1)}});
  const Written w = WriteObserved(root);
  EXPECT_EQ(w.out, "script: |\n  echo a\n  echo b\nstrip: |-\n  x\n  y\ntail: 1\n");
  EXPECT_EQ(Describe(w.out, w.spans),
            (std::vector<std::string>{"^  -: script: |\n  echo a\n  echo b\nstrip: |-\n  x\n  y\ntail: 1",
                                      "0 script literal: |\n  echo a\n  echo b\n",
                                      "0 strip literal: |-\n  x\n  y", "0 tail plain: 1"}));
  const Written item = WriteObserved(Seq({Str("a\nb\n")}));
  EXPECT_EQ(Describe(item.out, item.spans),
            (std::vector<std::string>{"^  -: - |\n  a\n  b\n", "0 #0 literal: |\n  a\n  b\n"}));
}

TEST(WriterSpansTest, ComplexKeyValue) {
  const std::string key(130, 'k');
  const doc::Node root = Map({{key, Int(1)}});
  const Written w = WriteObserved(root);
  EXPECT_EQ(w.out, "? " + key + "\n: 1\n");
  ASSERT_EQ(w.spans.size(), 2u);
  EXPECT_EQ(w.spans[1].key, key);
  EXPECT_EQ(w.out.substr(w.spans[1].begin, w.spans[1].end - w.spans[1].begin), "1");
}

// Offsets count from the start of *out, which may already hold text.
TEST(WriterSpansTest, AppendsAfterExistingText) {
  std::string out = "---\n";
  std::vector<WrittenSpan> spans;
  const doc::Node root = Map({{"a", Int(1)}});
  WriteWithSpans(root, &out, &spans);
  EXPECT_EQ(out, "---\na: 1\n");
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].begin, 4u);
  EXPECT_EQ(out.substr(spans[1].begin, spans[1].end - spans[1].begin), "1");
}

TEST(WriterSpansTest, WriteBytesAreUnchanged) {
  std::string long_text;
  for (int i = 0; i < 30; ++i) long_text += "\"quoted\" ";
  const doc::Node tree = Map(
      {{"spec", Map({{"containers", Seq({Map({{"name", Str("main")},
                                                {"command", Seq({Str("sh"), Str("-c"), Str("a\nb")})},
                                                {"env", Seq({})},
                                                {"resources", Map({})}})})},
                     {"text", Str(long_text)},
                     {"\xFF", Str("bad utf-8 key")},
                     {"yes", Str("yes")}})}});
  Written w = WriteObserved(tree);  // checks the bytes against Write
  EXPECT_FALSE(w.spans.empty());
  std::vector<doc::Node> objects = {tree, Map({{"a", Int(1)}})};
  EXPECT_EQ(WriteStream(objects), Write(tree) + "---\na: 1\n");
}

}  // namespace
}  // namespace tjr::yaml
