// Writer cases checked against kubectl: key order, key styles (complex
// keys), numbers, and the layout of nested mappings and sequences.

#include <gtest/gtest.h>

#include "yaml/kubectl_case.h"
#include "yaml/writer.h"

namespace tjr::yaml {
namespace {

using testing::KubectlCase;

class WriterStructureTest : public ::testing::TestWithParam<KubectlCase> {};

TEST_P(WriterStructureTest, MatchesKubectl) {
  EXPECT_EQ(Write(testing::PodTemplateWith(GetParam().json_value)),
            testing::KubectlOutput(GetParam()));
}

const KubectlCase kCases[] = {
    {"key order: digits by value",
     R"json({"a10": 1, "a9": 2, "a1": 3, "a01": 4, "a": 5, "a0": 6, "b": 7})json",
     "\n"
     "      a: 5\n"
     "      a0: 6\n"
     "      a1: 3\n"
     "      a01: 4\n"
     "      a9: 2\n"
     "      a10: 1\n"
     "      b: 7\n"},
    {"key order: letters after other characters",
     R"json({"Z": 1, "_": 2, "a": 3, "A": 4, "-": 5, ".": 6, "0": 7, "z": 8, "~": 9})json",
     "\n"
     "      '-': 5\n"
     "      .: 6\n"
     "      _: 2\n"
     "      \"~\": 9\n"
     "      \"0\": 7\n"
     "      A: 4\n"
     "      Z: 1\n"
     "      a: 3\n"
     "      z: 8\n"},
    {"key order: punctuation",
     R"json({"a-b": 1, "a.b": 2, "a/b": 3, "a_b": 4, "a b": 5, "aB": 6, "ab": 7})json",
     "\n"
     "      a b: 5\n"
     "      a-b: 1\n"
     "      a.b: 2\n"
     "      a/b: 3\n"
     "      a_b: 4\n"
     "      aB: 6\n"
     "      ab: 7\n"},
    {"key order: prefixes and numbers",
     R"json({"x": 1, "x1": 2, "x10": 3, "x2": 4, "10": 7, "9": 8, "100": 9, "099": 10})json",
     "\n"
     "      \"9\": 8\n"
     "      \"10\": 7\n"
     "      \"099\": 10\n"
     "      \"100\": 9\n"
     "      x: 1\n"
     "      x1: 2\n"
     "      x2: 4\n"
     "      x10: 3\n"},
    {"key order: zeros inside numbers",
     R"json({"x1y": 1, "x01y": 2, "x001y": 3, "x": 4, "x2": 5})json",
     "\n"
     "      x: 4\n"
     "      x1y: 1\n"
     "      x01y: 2\n"
     "      x001y: 3\n"
     "      x2: 5\n"},
    {"key order: non-ASCII letters",
     R"json({"\u00e9": 1, "e": 2, "f": 3, "\u03ba": 4, "\u4e2d": 5, "1": 6})json",
     "\n"
     "      \"1\": 6\n"
     "      e: 2\n"
     "      f: 3\n"
     "      é: 1\n"
     "      κ: 4\n"
     "      中: 5\n"},
    {"key order: many keys",
     R"json({"metadata": 0, "spec": 1, "status": 2, "kind": 3, "apiVersion": 4, "a10": 5, "a9": 6, "a": 7, "z": 8, "Z": 9, "_": 10, "k8s": 11, "k3s": 12, "x-1": 13, "x_1": 14, "x.1": 15, "2": 16, "10": 17})json",
     "\n"
     "      _: 10\n"
     "      \"2\": 16\n"
     "      \"10\": 17\n"
     "      Z: 9\n"
     "      a: 7\n"
     "      a9: 6\n"
     "      a10: 5\n"
     "      apiVersion: 4\n"
     "      k3s: 12\n"
     "      k8s: 11\n"
     "      kind: 3\n"
     "      metadata: 0\n"
     "      spec: 1\n"
     "      status: 2\n"
     "      x-1: 13\n"
     "      x.1: 15\n"
     "      x_1: 14\n"
     "      z: 8\n"},
    {"keys that need quotes",
     R"json({"1": "a", "true": "b", "": "c", "null": "d", "a: b": "e", "- x": "f", " lead": "g", "#c": "h", "*": "i", "yes": "j", "1:20": "k", "<<": "l", "~": "m"})json",
     "\n"
     "      \"\": c\n"
     "      ' lead': g\n"
     "      '#c': h\n"
     "      '*': i\n"
     "      '- x': f\n"
     "      \"<<\": l\n"
     "      \"~\": m\n"
     "      \"1\": a\n"
     "      \"1:20\": k\n"
     "      'a: b': e\n"
     "      \"null\": d\n"
     "      \"true\": b\n"
     "      \"yes\": j\n"},
    {"key with control characters",
     R"json({"a\tb": 1, "\u001b": 2, "\ud83d\ude00": 3})json",
     "\n"
     "      \"\\e\": 2\n"
     "      \"\\U0001F600\": 3\n"
     "      \"a\\tb\": 1\n"},
    {"key with newline becomes a complex literal key",
     R"json({"k\ney": 1, "multi\nline\nkey": {"a": 1}, "x\n": [1, 2]})json",
     "\n"
     "      ? |-\n"
     "        k\n"
     "        ey\n"
     "      : 1\n"
     "      ? |-\n"
     "        multi\n"
     "        line\n"
     "        key\n"
     "      : a: 1\n"
     "      ? |\n"
     "        x\n"
     "      : - 1\n"
     "        - 2\n"},
    {"key with trailing space before newline",
     R"json({"a \nb": 1})json",
     "\n"
     "      ? \"a \\nb\"\n"
     "      : 1\n"},
    {"key with line separator",
     R"json({"ls\u2028key": 4})json",
     "\n"
     "      ? 'ls\xE2\x80\xA8"
     "        key'\n"
     "      : 4\n"},
    {"key of 128 characters is simple",
     R"json({"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk": 1})json",
     "\n"
     "      kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk: 1\n"},
    {"key of 129 characters is complex",
     R"json({"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk": 1})json",
     "\n"
     "      ? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n"
     "      : 1\n"},
    {"long key with spaces folds",
     R"json({"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua": "v"})json",
     "\n"
     "      ? lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
     "        incididunt ut labore et dolore magna aliqua lorem ipsum dolor sit amet consectetur\n"
     "        adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna\n"
     "        aliqua\n"
     "      : v\n"},
    {"complex key with collection values",
     R"json({"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc": {"a": 1, "b": [1]}, "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd": [1, [2]], "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee": {}, "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff": []})json",
     "\n"
     "      ? cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\n"
     "      : a: 1\n"
     "        b:\n"
     "        - 1\n"
     "      ? dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd\n"
     "      : - 1\n"
     "        - - 2\n"
     "      ? eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\n"
     "      : {}\n"
     "      ? ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\n"
     "      : []\n"},
    {"long key length counts bytes",
     R"json({"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9": 1, "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9": 2})json",
     "\n"
     "      éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé: 1\n"
     "      ? ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé\n"
     "      : 2\n"},
    {"integers",
     R"json([0, -1, 42, 9223372036854775807, -9223372036854775808])json",
     "\n"
     "    - 0\n"
     "    - -1\n"
     "    - 42\n"
     "    - 9223372036854775807\n"
     "    - -9223372036854775808\n"},
    {"floats",
     R"json([0.5, 0.000001, 0.0000001, 1e21, 1e20, 1.5e19, 1.8446744073709552e19, -1e19, -0.0, 1234567.5, 100.25, 1e300, 5e-324, 3.0, 0.1, 123456.789, 1e15, 1e16, -2.5e-5, 1.7976931348623157e308])json",
     "\n"
     "    - 0.5\n"
     "    - 1e-06\n"
     "    - 1e-07\n"
     "    - 1e+21\n"
     "    - 1e+20\n"
     "    - 15000000000000000000\n"
     "    - 1.8446744073709552e+19\n"
     "    - -1e+19\n"
     "    - 0\n"
     "    - 1.2345675e+06\n"
     "    - 100.25\n"
     "    - 1e+300\n"
     "    - 5e-324\n"
     "    - 3\n"
     "    - 0.1\n"
     "    - 123456.789\n"
     "    - 1000000000000000\n"
     "    - 10000000000000000\n"
     "    - -2.5e-05\n"
     "    - 1.7976931348623157e+308\n"},
    {"floats under keys",
     R"json({"a": 0.5, "b": 1e-07, "c": 2.0})json",
     "\n"
     "      a: 0.5\n"
     "      b: 1e-07\n"
     "      c: 2\n"},
    {"empty collections",
     R"json({"m": {}, "l": [], "lm": [{}, []], "mm": {"x": {}}})json",
     "\n"
     "      l: []\n"
     "      lm:\n"
     "      - {}\n"
     "      - []\n"
     "      m: {}\n"
     "      mm:\n"
     "        x: {}\n"},
    {"null and bools",
     R"json({"n": null, "t": true, "f": false, "l": [null, true]})json",
     "\n"
     "      f: false\n"
     "      l:\n"
     "      - null\n"
     "      - true\n"
     "      \"n\": null\n"
     "      t: true\n"},
    {"nested sequences",
     R"json([[1, [2, [3]]], [[]], [[{}]]])json",
     "\n"
     "    - - 1\n"
     "      - - 2\n"
     "        - - 3\n"
     "    - - []\n"
     "    - - - {}\n"},
    {"maps in sequences",
     R"json([{"a": 1, "b": 2}, {"c": [1, 2], "d": {"e": 3}}, {"f": [{"g": 4}]}])json",
     "\n"
     "    - a: 1\n"
     "      b: 2\n"
     "    - c:\n"
     "      - 1\n"
     "      - 2\n"
     "      d:\n"
     "        e: 3\n"
     "    - f:\n"
     "      - g: 4\n"},
    {"sequence of multi-line and quoted strings",
     R"json(["a\nb", "- x", "1", " ", "\t"])json",
     "\n"
     "    - |-\n"
     "      a\n"
     "      b\n"
     "    - '- x'\n"
     "    - \"1\"\n"
     "    - ' '\n"
     "    - \"\\t\"\n"},
    {"beyond the width every space folds",
     R"json({"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":"x y z", "b": "p q"}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}})json",
     "\n"
     "      a:\n"
     "        a:\n"
     "          a:\n"
     "            a:\n"
     "              a:\n"
     "                a:\n"
     "                  a:\n"
     "                    a:\n"
     "                      a:\n"
     "                        a:\n"
     "                          a:\n"
     "                            a:\n"
     "                              a:\n"
     "                                a:\n"
     "                                  a:\n"
     "                                    a:\n"
     "                                      a:\n"
     "                                        a:\n"
     "                                          a:\n"
     "                                            a:\n"
     "                                              a:\n"
     "                                                a:\n"
     "                                                  a:\n"
     "                                                    a:\n"
     "                                                      a:\n"
     "                                                        a:\n"
     "                                                          a:\n"
     "                                                            a:\n"
     "                                                              a:\n"
     "                                                                a:\n"
     "                                                                  a:\n"
     "                                                                    a:\n"
     "                                                                      a:\n"
     "                                                                        a:\n"
     "                                                                          a:\n"
     "                                                                            a:\n"
     "                                                                              a:\n"
     "                                                                                a:\n"
     "                                                                                  a:\n"
     "                                                                                    a: x\n"
     "                                                                                      y\n"
     "                                                                                      z\n"
     "                                                                                    b: p\n"
     "                                                                                      q\n"},
    {"deep sequences past the width",
     R"json([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["- a b"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])json",
     "\n"
     "    - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - '-\n"
     "                                                                                              a\n"
     "                                                                                              b'\n"},
    {"deep nesting",
     R"json({"a": [{"b": [{"c": [[{"d": "e"}]]}]}]})json",
     "\n"
     "      a:\n"
     "      - b:\n"
     "        - c:\n"
     "          - - d: e\n"},
};

INSTANTIATE_TEST_SUITE_P(Kubectl, WriterStructureTest, ::testing::ValuesIn(kCases), testing::CaseName);

}  // namespace
}  // namespace tjr::yaml
