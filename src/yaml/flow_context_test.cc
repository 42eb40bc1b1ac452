#include "yaml/flow_context.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json.h"
#include "yaml/reader_test_util.h"

namespace tjr::yaml::input {
namespace {

using read_test::ErrorOf;
using read_test::ReadOne;

// Each text below was read by goyaml v2 (sigs.k8s.io/yaml's fork, which
// kubectl uses) offline; libfyaml 0.7.12 read every refused one as text
// or as a pair.
TEST(FlowPlain, RefusesAColonOrQuestionMarkThatStartsAValue) {
  // goyaml: "did not find expected node content".
  for (std::string_view text : {"f: [:b]\n", "f: [a, :b]\n", "f: {:b: c}\n", "f: {a: :b}\n", "f: {:b}\n",
                                "f: [a,\n :b]\n", "f: [a, {:b}]\n"}) {
    EXPECT_NE(ErrorOf(text).find("did not find expected node content"), std::string::npos) << text;
  }
  // goyaml: an explicit key (`[?b]` is [{b: null}]).
  EXPECT_NE(ErrorOf("f: [?b]\n").find("in.yaml:1:5: error: malformed YAML: a '?' that starts a value"),
            std::string::npos);
  EXPECT_NE(ErrorOf("f: {?b: c}\n").find("explicit key"), std::string::npos);
}

TEST(FlowPlain, RefusesAQuestionMarkInsideAValue) {
  // goyaml: "did not find expected ',' or ']'" (or '}').
  EXPECT_NE(ErrorOf("f: [http://x?y=1]\n").find("in.yaml:1:13: error: malformed YAML: did not find expected ',' or ']'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("f: {a: x?y}\n").find("expected ',' or '}'"), std::string::npos);
  EXPECT_NE(ErrorOf("f: {a?: x}\n").find("expected ',' or '}'"), std::string::npos);
  EXPECT_NE(ErrorOf("f: [a ?b]\n").find("expected ',' or ']'"), std::string::npos);
  EXPECT_NE(ErrorOf("f: [a\n  ? b]\n").find("expected ',' or ']'"), std::string::npos);
}

TEST(FlowPlain, RefusesAColonBeforeAFlowIndicator) {
  // goyaml: the strings "a:", "a:b:" and "a::"; libfyaml: pairs.
  for (std::string_view text : {"f: [a:]\n", "f: [a:,b]\n", "f: {a:}\n", "f: [a:b:]\n", "f: [a::]\n", "f: [a:[b]]\n"}) {
    EXPECT_NE(ErrorOf(text).find("in a flow collection is text to goyaml"), std::string::npos) << text;
  }
}

TEST(FlowPlain, ReadsWhatBothReadAlike) {
  auto json = [](std::string_view text) { return json::Write(ReadOne(text), false); };
  EXPECT_EQ(json("f: [a :b]\n"), R"({"f":["a :b"]})");
  EXPECT_EQ(json("f: [a\n  :b]\n"), R"({"f":["a :b"]})");
  EXPECT_EQ(json("f: [a: ]\n"), R"({"f":[{"a":null}]})");
  EXPECT_EQ(json("f: [? b]\n"), R"({"f":[{"b":null}]})");
  EXPECT_EQ(json("f: {a:b}\n"), R"({"f":{"a:b":null}})");
  EXPECT_EQ(json("f: [-b, \"a\":b, 'x?']\n"), R"({"f":["-b",{"a":"b"},"x?"]})");
  EXPECT_EQ(json("f: [http://x, a#b]\n"), R"({"f":["http://x","a#b"]})");
  // Outside flow collections '?' and ':' are text where goyaml reads them so.
  EXPECT_EQ(json("f: http://x?y=1\ng: a:]\n:h: ?i\n"), R"({":h":"?i","f":"http://x?y=1","g":"a:]"})");
}

TEST(FlowPlain, RefusesATagNotFollowedByABlank) {
  // goyaml: [b] (the tag is "!a,"), [b], [b] and an error; libfyaml: an
  // empty node first.
  for (std::string_view text : {"f: [!a, b]\n", "f: [!, b]\n", "f: [!!str, b]\n", "f: [!t[a]]\n"}) {
    EXPECT_NE(ErrorOf(text).find("did not find expected whitespace or line break after a tag"), std::string::npos) << text;
  }
  EXPECT_NE(ErrorOf("f: [!,\n  \"q\"]\n").find("in.yaml:1:6:"), std::string::npos);
  // goyaml refuses a tag that the next character does not end, in flow
  // collections and out.
  for (std::string_view text : {"b: {1: !,}\n", "b: {1: !a,}\n"}) {
    EXPECT_NE(ErrorOf(text).find("after a tag"), std::string::npos) << text;
  }
  EXPECT_FALSE(read_test::Read("k: !t{a: b}\n").ok());  // libfyaml refuses it too
  auto json = [](std::string_view text) { return json::Write(ReadOne(text), false); };
  EXPECT_EQ(json("f: [!!str 1, !t [a], {!a: b}]\n"), R"({"f":["1",["a"],{"b":null}]})");
}

// src/yaml/testdata/flow_cases.json (scripts/gen-flow-cases.py): what
// kubectl reads as `x`, or that it refuses the file. What kubectl refuses is
// refused; what it reads is read alike or refused, and a floor on the reads
// keeps a too-wide refusal from passing unnoticed.
TEST(FlowPlain, AgreesWithKubectl) {
  const std::vector<doc::Node> cases = read_test::KubectlCases("flow_cases.json");
  ASSERT_GT(cases.size(), 400u);
  std::size_t kubectl_read = 0;
  std::size_t read = 0;
  for (const doc::Node& item : cases) {
    const std::string yaml = item.Find("yaml")->string_value();
    Result<std::vector<doc::Node>> docs = read_test::Read(yaml);
    if (item.Find("refused") != nullptr) {
      EXPECT_FALSE(docs.ok()) << yaml;
      continue;
    }
    ++kubectl_read;
    if (!docs.ok()) continue;
    ++read;
    ASSERT_EQ(docs->size(), 1u) << yaml;
    const doc::Node* x = docs->front().Find("x");
    ASSERT_NE(x, nullptr) << yaml;
    EXPECT_EQ(json::Write(*x, false), json::Write(*item.Find("value"), false)) << yaml;
  }
  EXPECT_GE(read * 100, kubectl_read * 85) << read << " of " << kubectl_read;
}

TEST(FlowPlain, CheckPointsAtTheCharacter) {
  EXPECT_EQ(CheckFlowPlainScalar("[a?b]", 1, 4, ']')->at, 2u);
  EXPECT_EQ(CheckFlowPlainScalar("[a:]", 1, 2, ']')->at, 2u);
  EXPECT_FALSE(CheckFlowPlainScalar("[a: ]", 1, 2, ']').has_value());
  EXPECT_FALSE(CheckFlowPlainScalar("[a:", 1, 2, ']').has_value());
}

}  // namespace
}  // namespace tjr::yaml::input
