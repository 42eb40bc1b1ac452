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

struct ScalarCase {
  std::string_view yaml;
  std::string_view typed;
};

// Expectations from kubectl v1.32.4: each value was put in a custom
// object's spec and printed with
//   kubectl patch --local -f x.yaml --type merge -p '{}' -o json
// The kind is what util/json makes of kubectl's JSON text (integers that
// fit int64 are ints).
const ScalarCase kPlainScalars[] = {
    {"1", "int:1"},
    {"1.0", "int:1"},
    {"1.5", "float:1.5"},
    {"0x1F", "int:31"},
    {"0o17", "int:15"},
    {"0123", "int:83"},
    {"08", "int:8"},
    {"1_000", "int:1000"},
    {"+5", "int:5"},
    {"-0", "int:0"},
    {"0b101", "int:5"},
    {".5", "float:0.5"},
    {"1e3", "int:1000"},
    {"1e400", "str:1e400"},
    {".inf_x", "str:.inf_x"},
    {"~", "null"},
    {"null", "null"},
    {"Null", "null"},
    {"", "null"},
    {"y", "bool:true"},
    {"yes", "bool:true"},
    {"on", "bool:true"},
    {"off", "bool:false"},
    {"n", "bool:false"},
    {"NO", "bool:false"},
    {"True", "bool:true"},
    {"2001-12-14", "str:2001-12-14"},
    {"\"1\"", "str:1"},
    {"'2'", "str:2"},
    {"\"true\"", "str:true"},
    {"9223372036854775807", "int:9223372036854775807"},
    {"9223372036854775808", "float:9223372036854776000"},
    {"18446744073709551615", "float:18446744073709552000"},
    {"18446744073709551616", "float:18446744073709552000"},
    {"-9223372036854775809", "float:-9223372036854776000"},
    {"0xFFFFFFFFFFFFFFFF", "float:18446744073709552000"},
    {"1.0e+2", "int:100"},
    {"12345678901234567890.0", "float:12345678901234567000"},
    {"-0.0", "int:0"},
    {"0b-101", "int:-5"},
    {"1e-400", "int:0"},
    {"._5", "str:._5"},
    {".5_0", "float:0.5"},
    {"0x_1F", "int:31"},
    {"1__2", "int:12"},
    {"0x", "str:0x"},
    {"0b2", "str:0b2"},
    {"1.2.3", "str:1.2.3"},
    {"0.", "int:0"},
    {"trainer", "str:trainer"},
    {"<<", "str:<<"},
};

TEST(YamlReadScalarTest, PlainAndQuotedScalarsTypeAsKubectl) {
  for (const ScalarCase& c : kPlainScalars) {
    EXPECT_EQ(TypedValue(c.yaml), c.typed) << "v: " << c.yaml;
  }
}

// Same source: values with explicit tags.
const ScalarCase kTaggedScalars[] = {
    {"!!str 1", "str:1"},
    {"!!int \"2\"", "int:2"},
    {"!!float 3", "int:3"},
    {"!!float \"4.5\"", "float:4.5"},
    {"!!bool yes", "bool:true"},
    {"!!null ~", "null"},
    {"! 7", "str:7"},
    {"!foo bar", "str:bar"},
    {"!!binary aGVsbG8=", "str:hello"},
    {"!!timestamp 2001-12-14", "str:2001-12-14"},
    {"!!timestamp \"2001-02-28T10:11:12Z\"", "str:2001-02-28T10:11:12Z"},
    {"!!int 0x10", "int:16"},
    {"!!merge <<", "str:<<"},
    {"!!str", "str:"},
    {"!<tag:yaml.org,2002:int> \"7\"", "int:7"},
};

TEST(YamlReadScalarTest, TaggedScalarsTypeAsKubectl) {
  for (const ScalarCase& c : kTaggedScalars) {
    EXPECT_EQ(TypedValue(c.yaml), c.typed) << "v: " << c.yaml;
  }
}

TEST(YamlReadScalarTest, NumbersKeepTheirSourceText) {
  doc::Node root = ReadOne("a: 0x1F\nb: 1.50\nc: 1e3\nd: 18446744073709551615\n");
  EXPECT_EQ(root.Find("a")->source_text(), "0x1F");
  EXPECT_EQ(root.Find("b")->source_text(), "1.50");
  EXPECT_EQ(root.Find("c")->source_text(), "1e3");
  EXPECT_EQ(root.Find("d")->source_text(), "18446744073709551615");
}

TEST(YamlReadScalarTest, BlockScalarsAreStrings) {
  doc::Node root = ReadOne("a: |\n  12\n  x\nb: >-\n  true\n  y\nc: |-\n  5\n");
  EXPECT_EQ(Typed(*root.Find("a")), "str:12\nx\n");
  EXPECT_EQ(Typed(*root.Find("b")), "str:true y");
  EXPECT_EQ(Typed(*root.Find("c")), "str:5");
}

// kubectl v1.32.4 (`kubectl patch --local --type merge -p '{}' -o json`,
// the lines under a ConfigMap key) reads these block scalars as shown;
// libfyaml read them differently, so the reader refuses what it cannot
// read as kubectl does and reads the rest as before.
TEST(YamlReadScalarTest, BlockScalarsIndentedAsGoyamlIndentsThem) {
  // Lines no deeper than the mapping holding the scalar end it for goyaml:
  // kubectl reads b: "" and c: 1 (or fails on a bare line); libfyaml read
  // b: "c: 1\n".
  for (std::string_view text : {"a:\n  b: |\n  c: 1\n", "a:\n  b: |\n  x\n", "a:\n  - |\n  x\n",
                                "x:\n  - a: |\n    y\n", "k: &m\n  b: >-\n  y\n"}) {
    const std::string error = ErrorOf(text);
    EXPECT_NE(error.find("in.yaml:3:1: error: malformed YAML: the lines of a block scalar must be indented more "
                         "than the mapping or sequence that holds it"),
              std::string::npos)
        << text << "\n" << error;
  }
  // One deeper is enough; an indentless sequence's items take the
  // mapping's indentation; a top-level scalar needs one space.
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: |\n   x\n").Find("a")->Find("b")), "str:x\n");
  EXPECT_EQ(Typed(ReadOne("a:\n- |\n x\n").Find("a")->items()[0]), "str:x\n");
  EXPECT_EQ(Typed(*ReadOne("x:\n  - a: |\n     y\n").Find("x")->items()[0].Find("a")), "str:y\n");
  EXPECT_EQ(Typed(*ReadOne("a: 1\nb: |\nc: 2\n").Find("b")), "str:");
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: |1\n    x\n").Find("a")->Find("b")), "str: x\n");
  // An indentation indicator over nothing but lines of spaces, one longer
  // than the indentation: kubectl reads b: " \n" ("  \n" folded), libfyaml
  // returned "\0".
  for (std::string_view text : {"a:\n  b: |2\n     \n  c: 1\n", "a:\n  b: >2 # c\n      \n",
                                "a:\n  - |-1\n     \n"}) {
    const std::string error = ErrorOf(text);
    EXPECT_NE(error.find("in.yaml:3:1: error: malformed YAML: a block scalar with an indentation indicator that "
                         "holds only lines of spaces"),
              std::string::npos)
        << text << "\n" << error;
  }
  // Not longer than the indentation, or followed by text: read as kubectl.
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: |2\n    \n").Find("a")->Find("b")), "str:");
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: |2\n     \n    x\n").Find("a")->Find("b")), "str: \nx\n");
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: |\n       \n").Find("a")->Find("b")), "str:");
  // A folded scalar's more indented line after an empty line: kubectl
  // reads "x\n\n y\n", libfyaml read "x\n y\n\0".
  for (std::string_view text : {"a:\n  b: >\n    x\n\n     y\n", "a:\n  b: >-\n    x\n    \n\n     y\n    z\n",
                                "a:\n  b: >2\n    x\n\n     y\n"}) {
    const std::string error = ErrorOf(text);
    EXPECT_NE(error.find(": error: malformed YAML: a more indented line after an empty line in a folded block "
                         "scalar (>) is not read here"),
              std::string::npos)
        << text << "\n" << error;
  }
  // Without the empty line, in a literal scalar, or not more indented:
  // read as kubectl reads them.
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: >\n    x\n     y\n\n    z\n").Find("a")->Find("b")), "str:x\n y\n\nz\n");
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: |\n    x\n\n     y\n").Find("a")->Find("b")), "str:x\n\n y\n");
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: >\n    x\n\n    y\n").Find("a")->Find("b")), "str:x\ny\n");
  EXPECT_EQ(Typed(*ReadOne("a:\n  b: >\n\n     y\n").Find("a")->Find("b")), "str:\ny\n");
  // '|' or '>' on a line of its own over a more indented line: kubectl
  // reads "x\n  b\nc\n", libfyaml read "x\n  b\nc", and bytes that
  // differed from one read to the next (found by the yaml_determinism fuzz
  // target, fuzz/corpus/yaml_determinism/header-alone-more-indented).
  for (std::string_view text : {"a:\n  k:\n    |\n    x\n      b\n    c\n", "a:\n  k:\n    >-\n    x\n      b\n"}) {
    const std::string error = ErrorOf(text);
    EXPECT_NE(error.find("in.yaml:5:1: error: malformed YAML: a block scalar whose '|' or '>' stands on a line of "
                         "its own and that holds a more indented line is not read here"),
              std::string::npos)
        << text << "\n" << error;
  }
  EXPECT_EQ(Typed(*ReadOne("a:\n  k:\n    |\n    x\n    c: 2\n").Find("a")->Find("k")), "str:x\nc: 2\n");
  EXPECT_EQ(Typed(*ReadOne("a:\n  k: |\n    x\n      b\n    c\n").Find("a")->Find("k")), "str:x\n  b\nc\n");
}

// One-line printable-ASCII scalars are read straight from the input; the
// rest go through libfyaml's formatting. Both sides of that line, with
// flow collections, anchors and tags around the value.
TEST(YamlReadScalarTest, ScalarTextIsTheValueInEveryStyle) {
  doc::Node root = ReadOne(
      "a: plain  text  # comment\n"
      "b: 'it''s'\n"
      "c: \"tab\\there\"\n"
      "d: \"q: r\"\n"
      "e: [x, 'y', \"z\" ]\n"
      "f: &anchor !!str 'v w'\n"
      "g: caf\xc3\xa9\n"
      "h: multi\n  line\n"
      "i: \"\"\n"
      "j: 'two\n\n  lines'\n"
      "k: a\tb\n");
  EXPECT_EQ(Typed(*root.Find("a")), "str:plain  text");
  EXPECT_EQ(Typed(*root.Find("b")), "str:it's");
  EXPECT_EQ(Typed(*root.Find("c")), "str:tab\there");
  EXPECT_EQ(Typed(*root.Find("d")), "str:q: r");
  ASSERT_EQ(root.Find("e")->size(), 3u);
  EXPECT_EQ(Typed((*root.Find("e"))[0]), "str:x");
  EXPECT_EQ(Typed((*root.Find("e"))[2]), "str:z");
  EXPECT_EQ(Typed(*root.Find("f")), "str:v w");
  EXPECT_EQ(Typed(*root.Find("g")), "str:caf\xc3\xa9");
  EXPECT_EQ(Typed(*root.Find("h")), "str:multi line");
  EXPECT_EQ(Typed(*root.Find("i")), "str:");
  EXPECT_EQ(Typed(*root.Find("j")), "str:two\nlines");
  EXPECT_EQ(Typed(*root.Find("k")), "str:a\tb");
}

struct ErrorCase {
  std::string_view yaml;
  std::string_view message;
};

// kubectl's errors for the same values ("error converting YAML to JSON:
// yaml: ..."); ours carry the location and field path.
const ErrorCase kScalarErrors[] = {
    {".inf", "in.yaml:1:4: error: v: json: unsupported value: +Inf"},
    {"-.Inf", "in.yaml:1:4: error: v: json: unsupported value: -Inf"},
    {".nan", "in.yaml:1:4: error: v: json: unsupported value: NaN"},
    {"!!int abc", "in.yaml:1:4: error: v: cannot decode !!str `abc` as a !!int"},
    {"!!int 1.5", "in.yaml:1:4: error: v: cannot decode !!float `1.5` as a !!int"},
    {"!!float 18446744073709551615",
     "in.yaml:1:4: error: v: cannot decode !!int `18446744073709551615` as a !!float"},
    {"!!bool 1", "in.yaml:1:4: error: v: cannot decode !!int `1` as a !!bool"},
    {"!!null x", "in.yaml:1:4: error: v: cannot decode !!str `x` as a !!null"},
    {"!!binary \"a b\"", "in.yaml:1:4: error: v: !!binary value contains invalid base64 data"},
    {"!!timestamp 123", "in.yaml:1:4: error: v: cannot decode !!int `123` as a !!timestamp"},
    {"!!timestamp 2001-02-30",
     "in.yaml:1:4: error: v: cannot decode !!str `2001-02-30` as a !!timestamp"},
};

TEST(YamlReadScalarTest, TagMismatchesAndUnsupportedValuesAreErrors) {
  for (const ErrorCase& c : kScalarErrors) {
    EXPECT_EQ(ErrorOf("v: " + std::string(c.yaml) + "\n"), c.message) << c.yaml;
  }
}

// --- Map keys.

TEST(YamlReadKeyTest, NonStringKeysConvertAsSigsYaml) {
  // kubectl printed exactly these keys for the same mapping.
  doc::Node root = ReadOne(
      "v: {1: a, 1.5: b, true: c, 0x10: e, 1e3: f, 123456789.0: g, 0.1: h, .inf: i, -0.0: j, "
      "1e6: k, off: l, ~x: m}");
  std::vector<std::string> keys;
  for (const doc::Field& field : root.Find("v")->fields()) keys.push_back(field.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"1", "1.5", "true", "16", "1000", "1.2345679e+08",
                                            "0.1", ".inf", "-0", "1e+06", "false", "~x"}));
}

TEST(YamlReadKeyTest, UnsupportedKeys) {
  EXPECT_EQ(ErrorOf("v: {~: 1}\n"),
            "in.yaml:1:5: error: v: unsupported map key of type: <nil>, key: <nil>");
  EXPECT_EQ(ErrorOf("v: {18446744073709551615: 1}\n"),
            "in.yaml:1:5: error: v: unsupported map key of type: uint64, key: 0xffffffffffffffff");
  EXPECT_EQ(ErrorOf("v: {? [a]: 1}\n"),
            "in.yaml:1:7: error: v: invalid map key: a sequence cannot be a key");
  EXPECT_EQ(ErrorOf("? {a: 1}\n: x\n"),
            "in.yaml:1:3: error: invalid map key: a mapping cannot be a key");
}

TEST(YamlReadKeyTest, DuplicateKeysAreErrorsNamingBothPlaces) {
  EXPECT_EQ(ErrorOf("spec:\n  a: 1\n  b: 2\n  a: 3\n"),
            "in.yaml:4:3: error: spec: key \"a\" already set in map (first set at in.yaml:2:3)");
  // Keys that differ in YAML but convert to the same string collide too.
  EXPECT_EQ(ErrorOf("v: {1: a, \"1\": b}"),
            "in.yaml:1:11: error: v: key \"1\" already set in map (first set at in.yaml:1:5)");
  EXPECT_EQ(ErrorOf("v: {true: a, yes: b}"),
            "in.yaml:1:14: error: v: key \"true\" already set in map (first set at in.yaml:1:5)");
  // Found in large mappings as well.
  std::string big;
  for (int i = 0; i < 50; ++i) big += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  big += "k17: again\n";
  EXPECT_EQ(ErrorOf(big),
            "in.yaml:51:1: error: key \"k17\" already set in map (first set at in.yaml:18:1)");
  // The same key in sibling mappings is fine.
  EXPECT_EQ(ReadOne("- {a: 1}\n- {a: 2}\n").size(), 2u);
}

}  // namespace
}  // namespace tjr::yaml
