#include "yaml/block_subset.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"
#include "yaml/reader.h"

namespace tjr::yaml::input {
namespace {

// The subset's tree, or null when it leaves the text to libfyaml.
doc::Node Subset(std::string_view text, std::uint32_t first_line = 1) {
  std::size_t aliases = 0;
  TreeBuilder builder(BuilderLimits{}, &aliases);
  builder.Reset();
  doc::Node root;
  if (!BuildBlockSubset(text, InternSourceName("s.yaml"), first_line, builder, &root)) return {};
  return root;
}

// libfyaml's tree: a comment holding a tab is outside the subset and
// changes nothing else.
doc::Node Full(std::string_view text) {
  Result<std::vector<doc::Node>> docs =
      ReadStream(std::string(text) + "#\tread by libfyaml\n", "s.yaml", ReadOptions{});
  EXPECT_TRUE(docs.ok()) << docs.error().ToString();
  return docs.ok() && docs->size() == 1 ? (*docs)[0] : doc::Node();
}

// Values, kinds, locations of nodes and keys, and key order.
void ExpectSame(const doc::Node& a, const doc::Node& b) {
  ASSERT_EQ(a.kind(), b.kind()) << a.location().ToString();
  // An empty item (null) has no text of its own: libfyaml puts it at a
  // neighbouring token, the subset at its '-'.
  if (!a.is_null()) {
    EXPECT_EQ(a.location().ToString(), b.location().ToString());
  }
  EXPECT_EQ(a.source_text(), b.source_text()) << a.location().ToString();
  EXPECT_TRUE(a == b) << a.location().ToString();
  ASSERT_EQ(a.size(), b.size()) << a.location().ToString();
  for (std::size_t i = 0; i < a.items().size(); ++i) ExpectSame(a.items()[i], b.items()[i]);
  for (std::size_t i = 0; i < a.fields().size(); ++i) {
    EXPECT_EQ(a.fields()[i].key, b.fields()[i].key);
    EXPECT_EQ(a.fields()[i].key_location.ToString(), b.fields()[i].key_location.ToString());
    ExpectSame(a.fields()[i].value, b.fields()[i].value);
  }
}

TEST(BlockSubsetTest, ReadsAsLibfyamlDoes) {
  const char* cases[] = {
      "a: 1\nb: two words  # comment\nc: \"5\"\nd: 'x # y'\ne: -1\nf: http://h:80/p\n",
      "# leading comment\n\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n"
      "    app.kubernetes.io/name: x\nspec:\n  containers:\n  - name: c\n    image: i:1\n"
      "    args:\n    - --flag\n    -   spaced\n  - name: d\n    env:\n      - name: E\n"
      "        value: \"\"\n\n  # indented comment\n  restartPolicy: Never\n",
      "- a\n- b: c\n  d: e\n- 'q'\n",
      "top:\n    deep:\n        deeper: x [not flow]\n",
      "k: yes\nn: ~\nt: 2024-01-02\nf: 1.5e3\no: 0o17\nh: 0x1F\nm: <<\n",
      "<<:\n  a: 1\nb: 2\n",
      "-\n  a: 1\n",               // empty sequence items
      "r:\n  -\n  - a\n  -  # c\n",
      "- x\n-\n-\n  - y\n",
  };
  for (const char* text : cases) {
    SCOPED_TRACE(text);
    doc::Node subset = Subset(text);
    ASSERT_FALSE(subset.is_null());
    ExpectSame(subset, Full(text));
  }
}

// A stream of block-style documents is read a document at a time; libfyaml
// (forced by a tab in a comment of the last document) reads the same.
TEST(BlockSubsetTest, StreamsOfSubsetDocumentsReadAsLibfyamlDoes) {
  const std::string stream =
      "apiVersion: v1\nkind: A\nmetadata:\n  name: a\n"
      "---\n"
      "# comment\n"
      "apiVersion: v1\nkind: B\nspec:\n  list:\n  - x: 1\n    y: \"2\"\n"
      "--- # a comment after the marker\n"
      "\n"
      "- a\n- b\n"
      "---\n"
      "---\n"
      "k: v\n";
  Result<std::vector<doc::Node>> fast = ReadStream(stream, "s.yaml", ReadOptions{});
  Result<std::vector<doc::Node>> full = ReadStream(stream + "#\tread by libfyaml\n", "s.yaml", ReadOptions{});
  ASSERT_TRUE(fast.ok()) << fast.error().ToString();
  ASSERT_TRUE(full.ok()) << full.error().ToString();
  ASSERT_EQ(fast->size(), 4u);
  ASSERT_EQ(full->size(), 4u);
  for (std::size_t i = 0; i < fast->size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSame((*fast)[i], (*full)[i]);
  }
  EXPECT_EQ((*fast)[3].location().line, 19u);
  // One document outside the subset sends the whole stream to libfyaml.
  Result<std::vector<doc::Node>> mixed = ReadStream("a: 1\n---\nb: [1]\n", "s.yaml", ReadOptions{});
  ASSERT_TRUE(mixed.ok());
  ASSERT_EQ(mixed->size(), 2u);
  EXPECT_TRUE((*mixed)[1].Find("b")->is_sequence());
}

TEST(BlockSubsetTest, LinesCountFromTheChunksFirstLine) {
  doc::Node root = Subset("a:\n  b: c\n", 7);
  EXPECT_EQ(root.location().line, 7u);
  EXPECT_EQ(root.Find("a")->location().line, 8u);
  EXPECT_EQ(root.Find("a")->location().column, 3u);
}

// libfyaml 0.7.12 refuses an empty item in a sequence at its parent key's
// column ("did not find expected node content"); goyaml (kubectl) reads null.
TEST(BlockSubsetTest, EmptyItemsOfASequenceAtItsKeysColumn) {
  EXPECT_EQ(json::Write(Subset("r:\n- x\n-\n- a\n"), false), R"({"r":["x",null,"a"]})");
  EXPECT_EQ(json::Write(Subset("r:\n-\nb: 1\n"), false), R"({"b":1,"r":[null]})");
  EXPECT_EQ(json::Write(Subset("r:\n- # c\n\n- a\n"), false), R"({"r":[null,"a"]})");
  EXPECT_EQ(json::Write(Subset("r:\n-\n"), false), R"({"r":[null]})");
}

// Everything else goes to libfyaml, which also gives all errors.
TEST(BlockSubsetTest, LeavesTheRestToLibfyaml) {
  const char* cases[] = {
      "",                          // no document
      "# only a comment\n",
      "scalar\n",                  // a scalar root
      "  a: 1\n",                  // an indented root
      "---\na: 1\n",               // document markers and directives
      "%YAML 1.1\n---\na: 1\n",
      "a: &x 1\nb: *x\n",          // anchors, aliases, tags
      "a: !!str 1\n",
      "a: [1, 2]\n",               // flow collections
      "a: {b: c}\n",
      "a: |\n  text\n",            // block scalars
      "a: >\n  text\n",
      "a: multi\n  line\n",        // multi-line scalars
      "- multi\n  line\n",
      "a: \"x\\ty\"\n",            // escapes
      "a: 'it''s'\n",
      "a: \"open\n",
      "a:\nb: 1\n",                // empty values
      "a:\n",
      "- - a\n",                   // compact nested sequences
      "\"q\": 1\n",                // quoted and odd keys
      "a b : 1\n",
      "a:b: 1\n",
      "? a\n: b\n",
      "a: b: c\n",                 // invalid YAML
      "a: b\n- c\n",
      "a: 1\n  b: 2\n",
      "a: 1\na: 2\n",              // duplicate keys: the builder's error
      "a:\tb\n",                   // tabs, CR, non-ASCII
      "a: b\r\n",
      "a: caf\xc3\xa9\n",
      "a: 'x'y\n",
      "a: b:\n",
  };
  for (const char* text : cases) {
    EXPECT_TRUE(Subset(text).is_null()) << text;
  }
}

}  // namespace
}  // namespace tjr::yaml::input
