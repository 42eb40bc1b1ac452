// Quoted scalars read as goyaml v2 reads them. The expected values are
// kubectl's (scripts/gen-quoted-scalar-cases.py, testdata/
// quoted_scalar_cases.json), not tjrender's.
#include "yaml/quoted_scalar.h"

#include <gtest/gtest.h>


#include "yaml/reader_test_util.h"

namespace tjr::yaml {
namespace {

using read_test::ErrorOf;
using read_test::ReadOne;
using read_test::TypedValue;

std::string Decode(std::string_view inside, char quote) {
  std::string error;
  std::optional<std::string> value = input::DecodeQuotedScalar(inside, quote, &error);
  return value ? *value : "error: " + error;
}

TEST(QuotedScalarTest, DoubledQuotesInSingleQuotes) {
  // libfyaml 0.7.12 read this as "a'''" (issue 14).
  EXPECT_EQ(Decode("a''''b", '\''), "a''b");
  EXPECT_EQ(TypedValue("'a''''b'"), "str:a''b");
  EXPECT_EQ(TypedValue("''''''"), "str:''");
}

TEST(QuotedScalarTest, EscapedSpaceBeforeALineBreak) {
  // libfyaml gave "xy\0" and bytes past the value, different on every run.
  EXPECT_EQ(Decode("x\\ \n  y", '"'), "x  y");
  EXPECT_EQ(TypedValue("\"x\\ \n  y\""), "str:x  y");
}

TEST(QuotedScalarTest, RefusedAsGoyamlRefuses) {
  EXPECT_EQ(Decode("\\q", '"'), "error: found unknown escape character");
  EXPECT_EQ(Decode("\\xZZ", '"'), "error: did not find expected hexdecimal number");
  EXPECT_EQ(Decode("\\u12", '"'), "error: did not find expected hexdecimal number");
  EXPECT_EQ(Decode("\\ud800", '"'), "error: found invalid Unicode character escape code");
  EXPECT_EQ(Decode("\\U00110000", '"'), "error: found invalid Unicode character escape code");
  // The whole reader refuses it too (in libfyaml's words).
  EXPECT_NE(ErrorOf("v: \"\\q\"\n").find("invalid escape 'q'"), std::string::npos);
}

TEST(QuotedScalarTest, HugeRunsAreLinear) {
  const std::string run(1 << 20, '\'');  // 512 Ki escaped quotes
  EXPECT_EQ(Decode(run, '\''), std::string(1 << 19, '\''));
}

// Whether a double-quoted text holds the escape \<escaped>.
bool HasEscape(std::string_view inside, char escaped) {
  for (std::size_t i = 0; i + 1 < inside.size(); ++i) {
    if (inside[i] != '\\') continue;
    if (inside[i + 1] == escaped) return true;
    ++i;
  }
  return false;
}

struct KubectlCase {
  std::string yaml;
  std::string value;
};

std::vector<KubectlCase> LoadKubectlCases() {
  std::vector<KubectlCase> cases;
  for (const doc::Node& item : read_test::KubectlCases("quoted_scalar_cases.json")) {
    cases.push_back({item.Find("yaml")->string_value(), item.Find("value")->string_value()});
  }
  return cases;
}

// Every case through the decoder alone and through the whole reader, as a
// ConfigMap value the way the generator gave it to kubectl.
TEST(QuotedScalarTest, AgreesWithKubectl) {
  const std::vector<KubectlCase> cases = LoadKubectlCases();
  ASSERT_GT(cases.size(), 300u);
  for (const KubectlCase& c : cases) {
    const std::string_view inside = std::string_view(c.yaml).substr(1, c.yaml.size() - 2);
    EXPECT_EQ(Decode(inside, c.yaml[0]), c.value) << c.yaml;
    // Two known differences, refused with an error rather than misread:
    // libfyaml refuses the escape \' in double quotes, which goyaml (YAML
    // 1.1) reads as a quote, and a tab that starts a continuation line.
    if (c.yaml[0] == '"' && HasEscape(inside, '\'')) {
      EXPECT_NE(ErrorOf("k: " + c.yaml + "\n").find("invalid escape"), std::string::npos) << c.yaml;
      continue;
    }
    if (inside.find("\n\t") != std::string_view::npos) {
      EXPECT_NE(ErrorOf("k: " + c.yaml + "\n").find("invalid tab used as indentation"), std::string::npos)
          << c.yaml;
      continue;
    }
    doc::Node root = ReadOne("data:\n  k: " + c.yaml + "\n");
    const doc::Node* data = root.Find("data");
    ASSERT_NE(data, nullptr) << c.yaml;
    EXPECT_EQ(data->Find("k")->string_value(), c.value) << c.yaml;
  }
}

}  // namespace
}  // namespace tjr::yaml
