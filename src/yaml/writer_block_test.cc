// Writer cases checked against kubectl: literal blocks (chomping and
// indentation indicators) and folding at 80 columns in the plain, single-
// and double-quoted writers.

#include <gtest/gtest.h>

#include "yaml/kubectl_case.h"
#include "yaml/writer.h"

namespace tjr::yaml {
namespace {

using testing::KubectlCase;

class WriterBlockTest : public ::testing::TestWithParam<KubectlCase> {};

TEST_P(WriterBlockTest, MatchesKubectl) {
  EXPECT_EQ(Write(testing::PodTemplateWith(GetParam().json_value)),
            testing::KubectlOutput(GetParam()));
}

const KubectlCase kCases[] = {
    {"literal block with one trailing newline",
     R"json("a\nb\n")json",
     " |\n"
     "      a\n"
     "      b\n"},
    {"literal block without trailing newline",
     R"json("a\nb")json",
     " |-\n"
     "      a\n"
     "      b\n"},
    {"literal block keeping trailing newlines",
     R"json("a\nb\n\n")json",
     " |+\n"
     "      a\n"
     "      b\n"
     "\n"},
    {"literal block of only newlines",
     R"json(["\n", "\n\n"])json",
     "\n"
     "    - |2+\n"
     "\n"
     "    - |2+\n"
     "\n"
     "\n"},
    {"literal block with leading newline",
     R"json("\na\nb")json",
     " |2-\n"
     "\n"
     "      a\n"
     "      b\n"},
    {"literal block with leading spaces",
     R"json("  a\nb\n")json",
     " |2\n"
     "        a\n"
     "      b\n"},
    {"literal block with indented later line",
     R"json("a\n  b\n")json",
     " |\n"
     "      a\n"
     "        b\n"},
    {"literal block with empty lines",
     R"json("a\n\n\nb")json",
     " |-\n"
     "      a\n"
     "\n"
     "\n"
     "      b\n"},
    {"trailing space on a line forces double quotes",
     R"json(["a \nb", "a\nb ", "a\n \nb"])json",
     "\n"
     "    - \"a \\nb\"\n"
     "    - \"a\\nb \"\n"
     "    - \"a\\n \\nb\"\n"},
    {"space after a line break keeps literal",
     R"json("a\n b")json",
     " |-\n"
     "      a\n"
     "       b\n"},
    {"literal with indicators and unicode",
     R"json("# comment\nkey: value\n- item\n\u00e9\n")json",
     " |\n"
     "      # comment\n"
     "      key: value\n"
     "      - item\n"
     "      é\n"},
    {"literal with carriage return is double-quoted",
     R"json("a\r\nb\n")json",
     " \"a\\r\\nb\\n\"\n"},
    {"literal with tab is double-quoted",
     R"json("a\tb\nc")json",
     " \"a\\tb\\nc\"\n"},
    {"literal in a sequence and nested",
     R"json({"l": ["a\nb", {"k": "c\nd\n"}], "m": {"n": {"o": "x\ny"}}})json",
     "\n"
     "      l:\n"
     "      - |-\n"
     "        a\n"
     "        b\n"
     "      - k: |\n"
     "          c\n"
     "          d\n"
     "      m:\n"
     "        \"n\":\n"
     "          o: |-\n"
     "            x\n"
     "            y\n"},
    {"long plain value folds at 80 columns",
     R"json("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")json",
     " lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "      incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur\n"
     "      adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua\n"},
    {"long plain value with double spaces",
     R"json("lorem  ipsum  dolor  sit  amet  consectetur  adipiscing  elit  sed  do  eiusmod  tempor  incididunt  ut  labore  et  dolore  magna  aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")json",
     " lorem  ipsum  dolor  sit  amet  consectetur  adipiscing  elit  sed  do  eiusmod  tempor  incididunt  ut  labore  et  dolore  magna  aliqua\n"
     "      lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "      incididunt ut labore et dolore magna aliqua\n"},
    {"long value without spaces does not fold",
     R"json("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")json",
     " xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"},
    {"long value with one late space",
     R"json("yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy z")json",
     " yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n"
     "      z\n"},
    {"long single-quoted value folds",
     R"json("- lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")json",
     " '- lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "      incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur\n"
     "      adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'\n"},
    {"long double-quoted value folds",
     R"json("\tlorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")json",
     " \"\\tlorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "      incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur\n"
     "      adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua\"\n"},
    {"double-quoted fold before a second space escapes it",
     R"json("\twwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww  b  c")json",
     " \"\\twwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n"
     "      \\ b  c\"\n"},
    {"long double-quoted multi-line value folds",
     R"json("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua \nlorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua\n")json",
     " \"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "      incididunt ut labore et dolore magna aliqua \\nlorem ipsum dolor sit amet consectetur\n"
     "      adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua\n"
     "      lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "      incididunt ut labore et dolore magna aliqua\\n\"\n"},
    {"folding at nested indentation",
     R"json({"a": {"b": {"c": ["lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua", {"d": "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua"}]}}})json",
     "\n"
     "      a:\n"
     "        b:\n"
     "          c:\n"
     "          - lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n"
     "            tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit\n"
     "            amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore\n"
     "            et dolore magna aliqua\n"
     "          - d: lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n"
     "              tempor incididunt ut labore et dolore magna aliqua\n"},
    {"long args list",
     R"json({"args": ["--config=/etc/app/config.yaml --log-level=debug --feature-gates=AllAlpha=true,AllBeta=false --v=4 --port=8080", "sh", "-c", "echo start && sleep 3600 && echo done && exit 0 || echo failed with a rather long message here"]})json",
     "\n"
     "      args:\n"
     "      - --config=/etc/app/config.yaml --log-level=debug --feature-gates=AllAlpha=true,AllBeta=false\n"
     "        --v=4 --port=8080\n"
     "      - sh\n"
     "      - -c\n"
     "      - echo start && sleep 3600 && echo done && exit 0 || echo failed with a rather\n"
     "        long message here\n"},
    {"fold point exactly at the width",
     R"json(["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b c", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b c", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b c"])json",
     "\n"
     "    - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
     "      b c\n"
     "    - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
     "      b c\n"
     "    - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
     "      b c\n"},
    {"long unicode value counts characters",
     R"json("\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9 \u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9 end")json",
     " éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé éééééééééééééééééééé\n"
     "      end\n"},
};

INSTANTIATE_TEST_SUITE_P(Kubectl, WriterBlockTest, ::testing::ValuesIn(kCases), testing::CaseName);

}  // namespace
}  // namespace tjr::yaml
