#include "yaml/reader.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"
#include "yaml/reader_test_util.h"

namespace tjr::yaml {
namespace {

using read_test::ErrorOf;
using read_test::Read;
using read_test::ReadOne;
using read_test::Typed;
using read_test::TypedValue;

// --- Anchors, aliases and merge keys.

TEST(YamlReadAnchorTest, AliasesShareTheAnchoredValue) {
  doc::Node root = ReadOne(
      "base: &b {x: 1, y: [a, b]}\nuse: *b\nscalar: &s 0x10\nref: *s\nkey: {*s : v}\n");
  EXPECT_EQ(*root.Find("use"), *root.Find("base"));
  EXPECT_TRUE(root.Find("use")->SharesRepresentationWith(*root.Find("base")));
  EXPECT_EQ(Typed(*root.Find("ref")), "int:16");
  // An aliased scalar as a key converts from its YAML value.
  EXPECT_EQ(root.Find("key")->fields()[0].key, "16");
}

TEST(YamlReadAnchorTest, LaterAnchorsReplaceEarlierOnes) {
  doc::Node root = ReadOne("a: &x 1\nb: *x\nc: &x 2\nd: *x\n");
  EXPECT_EQ(Typed(*root.Find("b")), "int:1");
  EXPECT_EQ(Typed(*root.Find("d")), "int:2");
}

TEST(YamlReadAnchorTest, AliasErrors) {
  EXPECT_EQ(ErrorOf("v: [*x]\n"), "in.yaml:1:5: error: v[0]: unknown anchor 'x' referenced");
  EXPECT_EQ(ErrorOf("v: &a [*a]\n"),
            "in.yaml:1:8: error: v[0]: anchor 'a' value contains itself");
  EXPECT_EQ(ErrorOf("a: &m {x: 1}\n? *m\n: 1\n"),
            "in.yaml:2:3: error: invalid map key: a collection cannot be a key");
}

// Expectations checked with kubectl v1.32.4 (goyaml v2 merge semantics: a
// merge overwrites keys set before it, later keys overwrite merged ones,
// and earlier maps in a merge list win over later ones).
TEST(YamlReadMergeTest, MergeKeysFollowGoyamlV2) {
  doc::Node root = ReadOne(
      "base: &base {a: 1, b: 2, nested: {x: 1}}\n"
      "other: &other\n  b: 3\n  c: 4\n  <<: {d: 5, b: 30}\n"
      "m1:\n  <<: [*base, *other]\n  e: 6\n"
      "m2:\n  <<: [*other, *base]\n"
      "m3:\n  <<: *other\n  c: 40\n"
      "m4:\n  z: 0\n  <<:\n    - {p: 1, q: 1}\n    - {p: 2, r: 2}\n  q: 10\n"
      "one:\n  a: 1\n  <<: {a: 2, b: 2}\n"
      "deep:\n  <<: {<<: {inner: 1}, outer: 2}\n");
  auto json = [&](const char* key) { return json::Write(*root.Find(key), false); };
  EXPECT_EQ(json("m1"), R"({"a":1,"b":2,"c":4,"d":5,"e":6,"nested":{"x":1}})");
  EXPECT_EQ(json("m2"), R"({"a":1,"b":30,"c":4,"d":5,"nested":{"x":1}})");
  EXPECT_EQ(json("m3"), R"({"b":30,"c":40,"d":5})");
  EXPECT_EQ(json("m4"), R"({"p":1,"q":10,"r":2,"z":0})");
  EXPECT_EQ(json("one"), R"({"a":2,"b":2})");
  EXPECT_EQ(json("deep"), R"({"inner":1,"outer":2})");
}

TEST(YamlReadMergeTest, QuotedMergeKeyIsAnOrdinaryKey) {
  doc::Node root = ReadOne("m:\n  \"<<\": {a: 1}\n");
  EXPECT_EQ(json::Write(root, false), R"({"m":{"\u003c\u003c":{"a":1}}})");
}

TEST(YamlReadMergeTest, ExplicitDuplicateAfterMergeIsStillAnError) {
  EXPECT_EQ(ReadOne("m:\n  <<: {a: 1}\n  a: 2\n").Find("m")->Find("a")->int_value(), 2);
  EXPECT_NE(ErrorOf("m:\n  a: 1\n  <<: {a: 2}\n  a: 3\n").find("key \"a\" already set in map"),
            std::string::npos);
}

TEST(YamlReadMergeTest, MergeValueMustBeMappings) {
  const std::string message = "map merge requires map or sequence of maps as the value";
  EXPECT_NE(ErrorOf("m:\n  <<: 1\n").find(message), std::string::npos);
  EXPECT_NE(ErrorOf("m:\n  <<: [1]\n").find(message), std::string::npos);
  EXPECT_NE(ErrorOf("m:\n  <<: [[a]]\n").find(message), std::string::npos);
  EXPECT_NE(ErrorOf("l: &l [1]\nm:\n  <<: *l\n").find(message), std::string::npos);
}

// --- Limits.

std::string BillionLaughs(int levels) {
  std::string text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  char previous = 'a';
  for (int i = 1; i < levels; ++i) {
    const char name = static_cast<char>('a' + i);
    text += std::string(1, name) + ": &" + name + " [";
    for (int k = 0; k < 9; ++k) text += std::string(k ? "," : "") + "*" + previous;
    text += "]\n";
    previous = name;
  }
  return text;
}

TEST(YamlReadLimitTest, AliasBombFailsFast) {
  // goyaml's own guard (kubectl says the same).
  EXPECT_EQ(ErrorOf(BillionLaughs(9)),
            "in.yaml:4:17: error: d[3]: document contains excessive aliasing");
}

TEST(YamlReadLimitTest, AliasExpansionBudget) {
  ReadOptions options;
  options.max_alias_expanded_nodes = 100;
  // Each use of the list costs 10 nodes (the list and its items); 20 uses
  // are within goyaml's ratio but the 11th is over our budget.
  std::string text = "l: &l [1,2,3,4,5,6,7,8,9]\nu:\n";
  for (int i = 0; i < 20; ++i) text += "- *l\n";
  EXPECT_TRUE(Read(text).ok());
  EXPECT_EQ(ErrorOf(text, options),
            "in.yaml:13:3: error: u[10]: alias expansion exceeds the limit of 100 nodes");
}

TEST(YamlReadLimitTest, NodesPerDocument) {
  ReadOptions options;
  // goyaml's decode count: the document, the mapping, its key, the list, its items.
  options.max_document_nodes = 6;
  EXPECT_TRUE(Read("a: [1, 2]\n", options).ok());
  const std::string over = "the document holds more than 6 nodes, tjrender's limit per document (aliases "
                           "expanded); the cluster would refuse an object that large: kube-apiserver decodes request "
                           "bodies of at most 3 MiB and etcd stores values of at most 1.5 MiB (its "
                           "--max-request-bytes default)";
  EXPECT_EQ(ErrorOf("a: [1, 2, 3, 4, 5]\n", options), "in.yaml:1:11: error: a[2]: " + over);
  EXPECT_EQ(ErrorOf("a:\n- 1\n- 2\n- 3\n- 4\n- 5\n", options), "in.yaml:4:3: error: a[2]: " + over);
  // Per document: a stream of small ones is fine.
  EXPECT_TRUE(Read("a: [1, 2]\n---\nb: [1, 2]\n---\nc: [1, 2]\n", options).ok());
  // The default bound is far above what the API server takes (3 MiB bodies).
  EXPECT_EQ(ReadOptions{}.max_document_nodes, 2'000'000u);
}

TEST(YamlReadLimitTest, DepthLimit) {
  ReadOptions options;
  options.max_depth = 5;
  EXPECT_TRUE(Read("[[[[[1]]]]]", options).ok());
  EXPECT_EQ(ErrorOf("[[[[[[1]]]]]]", options),
            "in.yaml:1:6: error: [0][0][0][0][0]: YAML nesting exceeds the maximum depth of 5");
  EXPECT_EQ(ErrorOf("a:\n b:\n  c:\n   d:\n    e:\n     f: 1\n", options),
            "in.yaml:6:6: error: a.b.c.d.e: YAML nesting exceeds the maximum depth of 5");
  // Depth reached through an alias counts too.
  EXPECT_NE(ErrorOf("x: &x [[[1]]]\ny: [[*x]]\n", options).find("maximum depth of 5 through alias 'x'"),
            std::string::npos);
  // The default limit stops a hostile document.
  EXPECT_NE(ErrorOf(std::string(100000, '[')).find("maximum depth of 1000"), std::string::npos);
}

TEST(YamlReadLimitTest, DocumentSizeLimit) {
  ReadOptions options;
  options.max_document_bytes = 20;
  EXPECT_TRUE(Read("a: 1\n---\nb: 2\n", options).ok());
  EXPECT_EQ(ErrorOf("a: 1\n---\nb: [1, 2, 3, 4, 5, 6, 7, 8]\n", options),
            "in.yaml:3:1: error: YAML document of 28 bytes exceeds the limit of 20 bytes");
}

// --- Locations.

TEST(YamlReadLocationTest, NodesAndKeysCarryLineAndColumn) {
  doc::Node root = ReadOne(
      "metadata:\n  name: x\n  labels: {\"a\": 'b'}\nlist:\n  - 1\n  - &n !!str two\n"
      "\xc3\xa9t\xc3\xa9: v\n");
  EXPECT_EQ(root.location().ToString(), "in.yaml:1:1");
  const doc::Node& metadata = *root.Find("metadata");
  EXPECT_EQ(root.fields()[0].key_location.ToString(), "in.yaml:1:1");
  EXPECT_EQ(metadata.location().ToString(), "in.yaml:2:3");
  EXPECT_EQ(metadata.fields()[0].key_location.ToString(), "in.yaml:2:3");
  EXPECT_EQ(metadata.Find("name")->location().ToString(), "in.yaml:2:9");
  const doc::Node& labels = *metadata.Find("labels");
  EXPECT_EQ(labels.location().ToString(), "in.yaml:3:11");
  EXPECT_EQ(labels.fields()[0].key_location.ToString(), "in.yaml:3:12");  // the quote
  EXPECT_EQ(labels.Find("a")->location().ToString(), "in.yaml:3:17");
  const doc::Node& list = *root.Find("list");
  EXPECT_EQ(list.location().ToString(), "in.yaml:5:3");
  EXPECT_EQ(list[0].location().ToString(), "in.yaml:5:5");
  EXPECT_EQ(list[1].location().ToString(), "in.yaml:6:5");  // the anchor
  // Columns count characters.
  EXPECT_EQ(root.Find("\xc3\xa9t\xc3\xa9")->location().ToString(), "in.yaml:7:6");
}

TEST(YamlReadLocationTest, LaterDocumentsKeepStreamLineNumbers) {
  Result<std::vector<doc::Node>> docs = Read("a: 1\n---\n\nb:\n  c: 2\n");
  ASSERT_TRUE(docs.ok());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[1].Find("b")->Find("c")->location().ToString(), "in.yaml:5:6");
  // The same through the chunk-by-chunk path ("..." forces it).
  docs = Read("a: 1\n...\n---\n\nb:\n  c: 2\n");
  ASSERT_TRUE(docs.ok());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[1].Find("b")->Find("c")->location().ToString(), "in.yaml:6:6");
}

// Every location in a tree, keys' included, in document order.
void Locations(const doc::Node& node, std::vector<std::string>* out) {
  out->push_back(node.location().ToString());
  for (const doc::Node& item : node.items()) Locations(item, out);
  for (const doc::Field& field : node.fields()) {
    out->push_back(field.key_location.ToString());
    Locations(field.value, out);
  }
}

// What a read gives, as text: every location, or the error.
std::string Outcome(const Result<std::vector<doc::Node>>& read) {
  if (!read.ok()) return read.error().ToString();
  std::vector<std::string> locations;
  for (const doc::Node& document : *read) Locations(document, &locations);
  std::string out;
  for (const std::string& at : locations) out += at + " ";
  return out;
}

// first_line reads a document cut from a stream (a Helm post-renderer's)
// as if the stream's lines before it were there and blank, which is how it
// was read before: by padding it with newlines, N² bytes for N documents.
TEST(YamlReadLocationTest, FirstLineCountsAsIfBlankLinesCameBefore) {
  for (std::string_view text : {
           "---\nkind: X\nspec:\n  a: [1, {b: 2}]\n  c: |\n    x\n",  // flow style: libfyaml
           "---\nkind: X\nlist:\n- a: 1\n- b\n",                      // the block subset
           "---\na: 1\n---\nb: &x 2\nc: *x\n...\n",                   // chunk by chunk
           "{\"kind\": \"X\",\n \"spec\": {\"a\": [1, 2]}}\n",          // JSON
           "---\na: [1\n",                                              // a syntax error
           "---\na: 1\nb: \"\x01\"\n",                                   // a control character
           "---\na: 1\n--- x\nb: 2\n",                                  // a bad separator
           "---\na: 1\n  b: 2\n",                                        // a block error
           "---\nv: a\xC2\x85" "b\n",                                    // NEL outside quotes
       }) {
    ReadOptions shifted;
    shifted.first_line = 41;
    EXPECT_EQ(Outcome(Read(text, shifted)), Outcome(Read(std::string(40, '\n') + std::string(text)))) << text;
  }
}

// --- Streams.

TEST(YamlReadStreamTest, EmptyAndNullDocumentsAreSkipped) {
  Result<std::vector<doc::Node>> docs =
      Read("---\n# only a comment\n---\na: 1\n---   # comment\n\n---\nnull\n---\n~\n---\nb: 2\n");
  ASSERT_TRUE(docs.ok()) << docs.error().ToString();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(json::Write((*docs)[0], false), R"({"a":1})");
  EXPECT_EQ(json::Write((*docs)[1], false), R"({"b":2})");
  EXPECT_TRUE(Read("")->empty());
  EXPECT_TRUE(Read("# nothing\n")->empty());
}

TEST(YamlReadStreamTest, OnlyTheFirstDocumentOfAChunkCounts) {
  // kubectl hands "a: 1\n...\nb: 2\n" to goyaml as one chunk; goyaml reads
  // only its first document.
  Result<std::vector<doc::Node>> docs = Read("a: 1\n...\nb: 2\n---\nc: 3\n");
  ASSERT_TRUE(docs.ok()) << docs.error().ToString();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(json::Write((*docs)[0], false), R"({"a":1})");
  EXPECT_EQ(json::Write((*docs)[1], false), R"({"c":3})");
}

TEST(YamlReadStreamTest, SeparatorWithContentIsAnError) {
  // kubectl: "invalid Yaml document separator: {...}".
  EXPECT_EQ(ErrorOf("a: 1\n--- {b: 2}\n"),
            "in.yaml:2:1: error: invalid Yaml document separator: {b: 2}");
}

TEST(YamlReadStreamTest, CrLfLineEnds) {
  Result<std::vector<doc::Node>> docs = Read("a: 1\r\nb:\r\n  - x\r\n---\r\nc: 3\r\n");
  ASSERT_TRUE(docs.ok()) << docs.error().ToString();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(json::Write((*docs)[0], false), R"({"a":1,"b":["x"]})");
  EXPECT_EQ((*docs)[0].Find("b")->location().ToString(), "in.yaml:3:3");
}

TEST(YamlReadStreamTest, JsonStreamsUseJsonRules) {
  // A leading '{' makes kubectl decode the stream as JSON: 1.0 stays a float.
  Result<std::vector<doc::Node>> docs = Read("  {\"a\": 1.0, \"b\": 1}\nnull\n{\"c\": [1.5]}");
  ASSERT_TRUE(docs.ok()) << docs.error().ToString();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(Typed(*(*docs)[0].Find("a")), "float:1");
  EXPECT_EQ(Typed(*(*docs)[0].Find("b")), "int:1");
  EXPECT_EQ((*docs)[1].Find("c")->location().ToString(), "in.yaml:3:7");
  EXPECT_EQ(ErrorOf("{\"a\": 1, \"a\": 2}"),
            "in.yaml:1:10: error: key \"a\" already set in map (first set at in.yaml:1:2)");
  // A leading '[' is YAML to kubectl: 1.0 becomes an int there.
  EXPECT_EQ(Typed(ReadOne("[1.0]")[0]), "int:1");
}

// --- Malformed input.

TEST(YamlReadErrorTest, SyntaxErrorsCarryPositionAndLibfyamlMessage) {
  EXPECT_EQ(ErrorOf("a: b: c\n"),
            "in.yaml:1:5: error: malformed YAML: invalid nested block mapping on the same line");
  EXPECT_EQ(ErrorOf("a: [1, 2\nb: 3\n"),
            "in.yaml:3:1: error: malformed YAML: flow sequence without a closing bracket");
  EXPECT_EQ(ErrorOf("x: 1\n---\na:\n\tb: 1\n"),
            "in.yaml:4:1: error: malformed YAML: tab character may not be used as indentation");
  // The chunk-by-chunk path offsets lines the same way.
  EXPECT_EQ(ErrorOf("x: 1\n...\n---\na:\n\tb: 1\n"),
            "in.yaml:5:1: error: malformed YAML: tab character may not be used as indentation");
}

TEST(YamlReadErrorTest, EscapesGoyamlDoesNotKnow) {
  // YAML 1.2 added "\/"; goyaml (YAML 1.1) says "found unknown escape character".
  EXPECT_EQ(ErrorOf("a: 1\nb: \"x\n  y\\/z\"\n"),
            "in.yaml:3:4: error: malformed YAML: found unknown escape character");
  EXPECT_EQ(TypedValue("\"\\\\/\""), "str:\\/");  // an escaped backslash, then '/'
}

TEST(YamlReadErrorTest, ImplicitKeysAreLimitedTo1024Characters) {
  // kubectl accepts 1024 characters before the ':' and refuses 1025
  // ("could not find expected ':'"), in block and flow mappings alike.
  EXPECT_TRUE(Read("a: 1\n" + std::string(1024, 'k') + ": 1\n").ok());
  EXPECT_TRUE(Read("a: 1\n" + std::string(1023, 'k') + " : 1\n").ok());
  EXPECT_EQ(ErrorOf("a: 1\n" + std::string(1025, 'k') + ": 1\n"),
            "in.yaml:2:1: error: malformed YAML: could not find expected ':' (an implicit key may "
            "not exceed 1024 characters)");
  EXPECT_NE(ErrorOf("v: {\"" + std::string(1100, 'k') + "\": 1}\n").find("could not find"),
            std::string::npos);
  // The limit is on the source text: an alias key is short.
  EXPECT_TRUE(Read("v: &a " + std::string(1100, 'k') + "\nw: {*a : 1}\n").ok());
  // Explicit keys have no limit; long values neither.
  EXPECT_TRUE(Read("? " + std::string(1100, 'k') + "\n: 1\n").ok());
  EXPECT_TRUE(Read("a: " + std::string(5000, 'v') + "\n").ok());
}

TEST(YamlReadErrorTest, AnchorNamesGoyamlReadsDifferently) {
  // goyaml reads "&p:" as the anchor "p" on an empty key (kubectl then
  // fails on the null key); YAML 1.2 reads the anchor "p:".
  EXPECT_EQ(ErrorOf("l:\n- &p:\n    a: 1\n"),
            "in.yaml:2:3: error: malformed YAML: anchor name 'p:' may only contain letters, digits, "
            "'-' and '_' for goyaml");
  EXPECT_NE(ErrorOf("a: &x.y 1\n").find("anchor name 'x.y'"), std::string::npos);
  EXPECT_TRUE(Read("a: &Az09-_ 1\nb: *Az09-_\n").ok());
}

TEST(YamlReadErrorTest, BadCharacters) {
  EXPECT_EQ(ErrorOf("a: \x01\n"), "in.yaml:1:4: error: control characters are not allowed");
  EXPECT_EQ(ErrorOf("a: b\x7f\n"), "in.yaml:1:5: error: control characters are not allowed");
  EXPECT_EQ(ErrorOf("a: \xc3\xa9\xff\n"), "in.yaml:1:5: error: invalid leading UTF-8 octet");
  EXPECT_EQ(ErrorOf("a: \xe2\x82\n"), "in.yaml:1:4: error: invalid trailing UTF-8 octet");
  EXPECT_EQ(ErrorOf("a: \xc0\x80\n"), "in.yaml:1:4: error: invalid length of a UTF-8 sequence");
  EXPECT_EQ(ErrorOf("a: \xed\xa0\x80\n"), "in.yaml:1:4: error: invalid Unicode character");
  EXPECT_EQ(ErrorOf(std::string("a: \"\0\"\n", 7)),
            "in.yaml:1:5: error: control characters are not allowed");
  // NEL (U+0085) is a line break to goyaml: folded with the blanks around
  // it into one space (kubectl v1.32: "tab\there 😀"; libfyaml kept it).
  EXPECT_EQ(TypedValue("\"tab\\there \xc2\x85 \xf0\x9f\x98\x80\""), "str:tab\there \xf0\x9f\x98\x80");
}

// --- End to end.

// An object read here and written by json::Write must give the bytes of
//   kubectl patch --local -f OBJ.yaml --type merge -p '{}' -o json
// (kubectl v1.32.4, output pasted verbatim).
constexpr char kJobSetYaml[] =
    "# A JobSet-like object exercising the reader end to end.\n"
    "apiVersion: jobset.x-k8s.io/v1alpha2\n"
    "kind: JobSet\n"
    "metadata:\n"
    "  name: trainer\n"
    "  labels: &labels\n"
    "    app: trainer\n"
    "    tier: \"1\"\n"
    "  annotations:\n"
    "    note: |\n"
    "      line one\n"
    "      <b>&amp;</b> \"quoted\" \\ back\n"
    "    folded: >-\n"
    "      folded text\n"
    "      continues here\n"
    "spec:\n"
    "  failurePolicy: {maxRestarts: 3}\n"
    "  replicatedJobs:\n"
    "  - name: workers\n"
    "    replicas: 2\n"
    "    template:\n"
    "      metadata:\n"
    "        labels:\n"
    "          <<: *labels\n"
    "          role: worker\n"
    "      spec:\n"
    "        parallelism: 0x4\n"
    "        template:\n"
    "          spec:\n"
    "            containers:\n"
    "            - name: main\n"
    "              image: \"registry.example.com/ml/trainer:v1.2\"\n"
    "              args: [--lr, 0.001, --epochs, 10, --flag, yes, --ratio, 1.0, '--name', \"\xc3\xa9t\xc3\xa9 \xe2\x98\x83\"]\n"
    "              resources:\n"
    "                limits: {cpu: 4, memory: 16Gi, \"nvidia.com/gpu\": 1}\n"
    "                requests: {cpu: 2.5, memory: 8Gi}\n"
    "            restartPolicy: Never\n";

constexpr char kJobSetKubectlJson[] =
    "{\n"
    "    \"apiVersion\": \"jobset.x-k8s.io/v1alpha2\",\n"
    "    \"kind\": \"JobSet\",\n"
    "    \"metadata\": {\n"
    "        \"annotations\": {\n"
    "            \"folded\": \"folded text continues here\",\n"
    "            \"note\": \"line one\\n\\u003cb\\u003e\\u0026amp;\\u003c/b\\u003e \\\"quoted\\\" \\\\ back\\n\"\n"
    "        },\n"
    "        \"labels\": {\n"
    "            \"app\": \"trainer\",\n"
    "            \"tier\": \"1\"\n"
    "        },\n"
    "        \"name\": \"trainer\"\n"
    "    },\n"
    "    \"spec\": {\n"
    "        \"failurePolicy\": {\n"
    "            \"maxRestarts\": 3\n"
    "        },\n"
    "        \"replicatedJobs\": [\n"
    "            {\n"
    "                \"name\": \"workers\",\n"
    "                \"replicas\": 2,\n"
    "                \"template\": {\n"
    "                    \"metadata\": {\n"
    "                        \"labels\": {\n"
    "                            \"app\": \"trainer\",\n"
    "                            \"role\": \"worker\",\n"
    "                            \"tier\": \"1\"\n"
    "                        }\n"
    "                    },\n"
    "                    \"spec\": {\n"
    "                        \"parallelism\": 4,\n"
    "                        \"template\": {\n"
    "                            \"spec\": {\n"
    "                                \"containers\": [\n"
    "                                    {\n"
    "                                        \"args\": [\n"
    "                                            \"--lr\",\n"
    "                                            0.001,\n"
    "                                            \"--epochs\",\n"
    "                                            10,\n"
    "                                            \"--flag\",\n"
    "                                            true,\n"
    "                                            \"--ratio\",\n"
    "                                            1,\n"
    "                                            \"--name\",\n"
    "                                            \"\xc3\xa9t\xc3\xa9 \xe2\x98\x83\"\n"
    "                                        ],\n"
    "                                        \"image\": \"registry.example.com/ml/trainer:v1.2\",\n"
    "                                        \"name\": \"main\",\n"
    "                                        \"resources\": {\n"
    "                                            \"limits\": {\n"
    "                                                \"cpu\": 4,\n"
    "                                                \"memory\": \"16Gi\",\n"
    "                                                \"nvidia.com/gpu\": 1\n"
    "                                            },\n"
    "                                            \"requests\": {\n"
    "                                                \"cpu\": 2.5,\n"
    "                                                \"memory\": \"8Gi\"\n"
    "                                            }\n"
    "                                        }\n"
    "                                    }\n"
    "                                ],\n"
    "                                \"restartPolicy\": \"Never\"\n"
    "                            }\n"
    "                        }\n"
    "                    }\n"
    "                }\n"
    "            }\n"
    "        ]\n"
    "    }\n"
    "}\n";

TEST(YamlReadEndToEndTest, JsonOfAJobSetMatchesKubectl) {
  EXPECT_EQ(json::Write(ReadOne(kJobSetYaml), true), kJobSetKubectlJson);
}

// What Windows PowerShell's `>` writes: UTF-16 with a byte order mark.
// kubectl reads it through x/text's BOMOverride; so does tjrender.
TEST(YamlReadEncodingTest, Utf16WithByteOrderMark) {
  const std::string utf8 = "kind: ConfigMap\ndata: {k: 'caf\xC3\xA9'}\n";
  std::string little = "\xFF\xFE";
  std::string big = "\xFE\xFF";
  for (char c : utf8) {
    // Every character of this text is one UTF-16 unit below U+0100.
    if (c == '\xC3') continue;
    const char unit = c == '\xA9' ? '\xE9' : c;
    little += std::string{unit, '\0'};
    big += std::string{'\0', unit};
  }
  EXPECT_EQ(json::Write(ReadOne(little), false), "{\"data\":{\"k\":\"caf\xC3\xA9\"},\"kind\":\"ConfigMap\"}");
  EXPECT_EQ(json::Write(ReadOne(big), false), "{\"data\":{\"k\":\"caf\xC3\xA9\"},\"kind\":\"ConfigMap\"}");
}

// NEL, LS and PS outside quotes: a line break to goyaml, text to libfyaml.
// kubectl v1.32 reads "b:\n  x<LS>y: 1" as b: x and a top-level key y.
TEST(YamlReadEncodingTest, Yaml11LineBreaksOutsideQuotesAreRefused) {
  EXPECT_EQ(ErrorOf("b:\n  x\xE2\x80\xA8y: 1\n"),
            "in.yaml:2:4: error: malformed YAML: U+2028 (line separator) outside quotes is a line break to goyaml "
            "(YAML 1.1), which kubectl uses, and text to YAML 1.2 parsers; quote the value and write it as an "
            "escape (\\N, \\L, \\P)");
  EXPECT_NE(ErrorOf("k: a\xC2\x85" "b\n").find("in.yaml:1:5: error: malformed YAML: U+0085 (next line)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("k: v # note\xE2\x80\xA9\n").find("U+2029 (paragraph separator)"), std::string::npos);
  EXPECT_NE(ErrorOf("k: |\n  a\xE2\x80\xA8" "b\n").find("U+2028"), std::string::npos);
  // Inside quotes goyaml folds them, and so does tjrender.
  EXPECT_EQ(TypedValue("'a\xE2\x80\xA8" "b'"), "str:a\xE2\x80\xA8" "b");
  EXPECT_EQ(TypedValue("\"a\xC2\x85" "b\""), "str:a b");
  EXPECT_EQ(TypedValue("\"\xE2\x80\xA8\""), "str:\xE2\x80\xA8");
}

// A lone CR (an old Mac line end) is a line break to goyaml in every
// context; values from goyaml v2 (kubernetes-sigs/yaml's fork).
TEST(YamlReadEncodingTest, ALoneCarriageReturnIsALineBreak) {
  EXPECT_EQ(json::Write(ReadOne("a: 1\rb: x\r"), false), "{\"a\":1,\"b\":\"x\"}");
  EXPECT_EQ(json::Write(ReadOne("k: |\r  x\r  y\r"), false), "{\"k\":\"x\\ny\\n\"}");
  // Folded inside quotes as any line break is; before, "ab".
  EXPECT_EQ(json::Write(ReadOne("k: \"a\r  b\"\r"), false), "{\"k\":\"a b\"}");
  EXPECT_EQ(json::Write(ReadOne("k: 'a\r\r  b'\rm: [1,\r 2]\r"), false), "{\"k\":\"a\\nb\",\"m\":[1,2]}");
  // CRLF stays one line break.
  EXPECT_EQ(json::Write(ReadOne("a: 1\r\nb: |\r\n  x\r\n"), false), "{\"a\":1,\"b\":\"x\\n\"}");
  // Lines counted as goyaml counts them.
  EXPECT_EQ(ErrorOf("a: 1\rb: [\r"), ErrorOf("a: 1\nb: [\n"));
  EXPECT_FALSE(HasLoneCarriageReturn("a\r\nb\n"));
  EXPECT_TRUE(HasLoneCarriageReturn("a\r\nb\r"));
  EXPECT_EQ(LoneCarriageReturnsAsLineFeeds("a\r\r\nb\r"), "a\n\r\nb\n");
}

// The yaml_determinism fuzz finding: block-scalar indicators on lines ended
// by lone CRs, which libfyaml read with bytes that are not in the input
// (NUL on one read, heap bytes on another). Now read as the same text with
// "\n" line ends, refused by the block scalar check, the same every time.
TEST(YamlReadEncodingTest, BlockScalarsAfterLoneCarriageReturnsReadTheSameEveryTime) {
  const std::string text =
      "apiVesiok:\n \n\n \n \r |\n \r\n\n \n\n k:k:\n \n |\n \n\n \n ?\r |\n  |\n \n\n \n \r |\n \r  |\n"
      " \n\n \n \r |\n \r\n  inject-finalizer: true\n";
  const std::string lf = LoneCarriageReturnsAsLineFeeds(text);
  const std::string error = ErrorOf(text);
  EXPECT_NE(error.find("a block scalar whose '|' or '>' stands on a line of its own"), std::string::npos) << error;
  EXPECT_EQ(error, ErrorOf(lf));
  ReadOptions libfyaml;
  libfyaml.libfyaml_only = true;
  EXPECT_EQ(ErrorOf(text, libfyaml), error);
}

}  // namespace
}  // namespace tjr::yaml
