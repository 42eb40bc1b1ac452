// Writer cases checked against kubectl: scalar styles (plain, resolver
// look-alikes that need quotes, indicators, spaces, control and unicode
// characters).

#include <gtest/gtest.h>

#include "yaml/kubectl_case.h"
#include "yaml/writer.h"

namespace tjr::yaml {
namespace {

using testing::KubectlCase;

class WriterScalarTest : public ::testing::TestWithParam<KubectlCase> {};

TEST_P(WriterScalarTest, MatchesKubectl) {
  EXPECT_EQ(Write(testing::PodTemplateWith(GetParam().json_value)),
            testing::KubectlOutput(GetParam()));
}

const KubectlCase kCases[] = {
    {"plain words",
     R"json("hello world")json",
     " hello world\n"},
    {"resolver look-alikes are double-quoted",
     R"json(["1", "-1", "+1", "0123", "09", "0x1F", "0o17", "0b101", "0b-1", "-0b11", "1e3", "1E+3", "1.5", "1.", ".5", "-.5", "1_000", "1__0", "9223372036854775808", "18446744073709551616", "-9223372036854775809"])json",
     "\n"
     "    - \"1\"\n"
     "    - \"-1\"\n"
     "    - \"+1\"\n"
     "    - \"0123\"\n"
     "    - \"09\"\n"
     "    - \"0x1F\"\n"
     "    - \"0o17\"\n"
     "    - \"0b101\"\n"
     "    - \"0b-1\"\n"
     "    - \"-0b11\"\n"
     "    - \"1e3\"\n"
     "    - \"1E+3\"\n"
     "    - \"1.5\"\n"
     "    - \"1.\"\n"
     "    - \".5\"\n"
     "    - \"-.5\"\n"
     "    - \"1_000\"\n"
     "    - \"1__0\"\n"
     "    - \"9223372036854775808\"\n"
     "    - \"18446744073709551616\"\n"
     "    - \"-9223372036854775809\"\n"},
    {"number-like strings that stay plain",
     R"json(["_1", "1e400", "._5", "1.5.5", "0x", "1e", "+", "-", ".", "1a", "0b2", "12:60", "1:2:3.5x", "1_"])json",
     "\n"
     "    - _1\n"
     "    - 1e400\n"
     "    - ._5\n"
     "    - 1.5.5\n"
     "    - 0x\n"
     "    - 1e\n"
     "    - +\n"
     "    - '-'\n"
     "    - .\n"
     "    - 1a\n"
     "    - 0b2\n"
     "    - 12:60\n"
     "    - 1:2:3.5x\n"
     "    - \"1_\"\n"},
    {"float look-alikes with underscores after a dot",
     R"json([".5_5", ".5__5", "._5", ".5_", ".5e1_0"])json",
     "\n"
     "    - \".5_5\"\n"
     "    - .5__5\n"
     "    - ._5\n"
     "    - .5_\n"
     "    - \".5e1_0\"\n"},
    {"base-60 floats are double-quoted",
     R"json(["1:20", "-1:30:00", "1:2:3.5", "1_0:20", "+1:5", "190:20:30.15", "1:60", "1:20:"])json",
     "\n"
     "    - \"1:20\"\n"
     "    - \"-1:30:00\"\n"
     "    - \"1:2:3.5\"\n"
     "    - \"1_0:20\"\n"
     "    - \"+1:5\"\n"
     "    - \"190:20:30.15\"\n"
     "    - 1:60\n"
     "    - '1:20:'\n"},
    {"bools, nulls and specials",
     R"json(["true", "True", "TRUE", "tRue", "yes", "Yes", "No", "on", "OFF", "y", "Y", "n", "N", "~", "null", "Null", "NULL", "nULL", "", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "<<", "off"])json",
     "\n"
     "    - \"true\"\n"
     "    - \"True\"\n"
     "    - \"TRUE\"\n"
     "    - tRue\n"
     "    - \"yes\"\n"
     "    - \"Yes\"\n"
     "    - \"No\"\n"
     "    - \"on\"\n"
     "    - \"OFF\"\n"
     "    - \"y\"\n"
     "    - \"Y\"\n"
     "    - \"n\"\n"
     "    - \"N\"\n"
     "    - \"~\"\n"
     "    - \"null\"\n"
     "    - \"Null\"\n"
     "    - \"NULL\"\n"
     "    - nULL\n"
     "    - \"\"\n"
     "    - \".inf\"\n"
     "    - \"-.Inf\"\n"
     "    - \"+.INF\"\n"
     "    - \".nan\"\n"
     "    - \".NaN\"\n"
     "    - <<\n"
     "    - \"off\"\n"},
    {"timestamps are double-quoted",
     R"json(["2001-12-14", "2001-1-2", "2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43Z", "2001-12-14 21:59:43.10", "2001-12-14  21:59:43,5", "2024-02-29", "2000-02-29", "2001-12-14T1:2:3+24:00"])json",
     "\n"
     "    - \"2001-12-14\"\n"
     "    - \"2001-1-2\"\n"
     "    - \"2001-12-14t21:59:43.10-05:00\"\n"
     "    - \"2001-12-14T21:59:43Z\"\n"
     "    - \"2001-12-14 21:59:43.10\"\n"
     "    - \"2001-12-14  21:59:43,5\"\n"
     "    - \"2024-02-29\"\n"
     "    - \"2000-02-29\"\n"
     "    - \"2001-12-14T1:2:3+24:00\"\n"},
    {"invalid timestamps stay plain",
     R"json(["2002-02-29", "1900-02-29", "2001-13-01", "2001-12-32", "2001-12-14T24:00:00Z", "2001-12-14T21:60:00Z", "2001-12-14T21:59:43", "2001-12-14 21:59:43Z", "2001-012-14", "20011-12-14", "2001-12-14T21:59:43+25:00", "2001-12-14T21:59:43.Z", "2001-12-14x"])json",
     "\n"
     "    - 2002-02-29\n"
     "    - 1900-02-29\n"
     "    - 2001-13-01\n"
     "    - 2001-12-32\n"
     "    - 2001-12-14T24:00:00Z\n"
     "    - 2001-12-14T21:60:00Z\n"
     "    - 2001-12-14T21:59:43\n"
     "    - 2001-12-14 21:59:43Z\n"
     "    - 2001-012-14\n"
     "    - 20011-12-14\n"
     "    - 2001-12-14T21:59:43+25:00\n"
     "    - 2001-12-14T21:59:43.Z\n"
     "    - 2001-12-14x\n"},
    {"leading indicators are single-quoted",
     R"json(["*", "&a", "!tag", "|", ">", "'", "\"", "%", "@", "`", "#x", "[a]", "{a}", ",a", "]", "}"])json",
     "\n"
     "    - '*'\n"
     "    - '&a'\n"
     "    - '!tag'\n"
     "    - '|'\n"
     "    - '>'\n"
     "    - ''''\n"
     "    - '\"'\n"
     "    - '%'\n"
     "    - '@'\n"
     "    - '`'\n"
     "    - '#x'\n"
     "    - '[a]'\n"
     "    - '{a}'\n"
     "    - ',a'\n"
     "    - ']'\n"
     "    - '}'\n"},
    {"indicators inside plain scalars",
     R"json(["a#b", "a #b", "a: b", "a:b", "a:", "a,b", "a[b]", "a{b}", "a?b", "a ?b", "a*", "a&b", "a!b", "a|b", "a>b", "a'b", "a\"b", "a%b", "a@b", "a`b", "a - b"])json",
     "\n"
     "    - a#b\n"
     "    - 'a #b'\n"
     "    - 'a: b'\n"
     "    - a:b\n"
     "    - 'a:'\n"
     "    - a,b\n"
     "    - a[b]\n"
     "    - a{b}\n"
     "    - a?b\n"
     "    - a ?b\n"
     "    - a*\n"
     "    - a&b\n"
     "    - a!b\n"
     "    - a|b\n"
     "    - a>b\n"
     "    - a'b\n"
     "    - a\"b\n"
     "    - a%b\n"
     "    - a@b\n"
     "    - a`b\n"
     "    - a - b\n"},
    {"dash, question mark and colon at the start",
     R"json(["- x", "-x", "-", "--", "? x", "?x", "?", ": x", ":x", ":", "-\u00a0x"])json",
     "\n"
     "    - '- x'\n"
     "    - -x\n"
     "    - '-'\n"
     "    - --\n"
     "    - '? x'\n"
     "    - ?x\n"
     "    - '?'\n"
     "    - ': x'\n"
     "    - :x\n"
     "    - ':'\n"
     "    - -\xC2\xA0x\n"},
    {"document markers",
     R"json(["---", "--- x", "---x", "...", "... x", "....", "--", "-- -"])json",
     "\n"
     "    - '---'\n"
     "    - '--- x'\n"
     "    - '---x'\n"
     "    - '...'\n"
     "    - '... x'\n"
     "    - '....'\n"
     "    - --\n"
     "    - -- -\n"},
    {"leading and trailing spaces",
     R"json([" lead", "trail ", " ", "  ", "a  b", " a ", "a 'b"])json",
     "\n"
     "    - ' lead'\n"
     "    - 'trail '\n"
     "    - ' '\n"
     "    - '  '\n"
     "    - a  b\n"
     "    - ' a '\n"
     "    - a 'b\n"},
    {"single quotes doubled",
     R"json([" it's", "'quoted'"])json",
     "\n"
     "    - ' it''s'\n"
     "    - '''quoted'''\n"},
    {"control characters are escaped",
     R"json(["a\tb", "a\rb", "\u0000", "\u001b", "\u0007", "\b\f\u000b", "\u0001\u001f", "tab\tend"])json",
     "\n"
     "    - \"a\\tb\"\n"
     "    - \"a\\rb\"\n"
     "    - \"\\0\"\n"
     "    - \"\\e\"\n"
     "    - \"\\a\"\n"
     "    - \"\\b\\f\\v\"\n"
     "    - \"\\x01\\x1F\"\n"
     "    - \"tab\\tend\"\n"},
    {"non-breaking space",
     R"json(["\u00a0x", "x\u00a0", "\u00a0", "a\u00a0b"])json",
     "\n"
     "    - \xC2\xA0x\n"
     "    - x\xC2\xA0\n"
     "    - \xC2\xA0\n"
     "    - a\xC2\xA0" "b\n"},
    {"unicode is written raw",
     R"json(["\u00e9", "\u4e2d\u6587", "caf\u00e9 au lait", "\ue000", "\ud7ff", "\uffee"])json",
     "\n"
     "    - é\n"
     "    - 中文\n"
     "    - café au lait\n"
     "    - \xEE\x80\x80\n"
     "    - ퟿\n"
     "    - ￮\n"},
    {"outside the BMP is escaped",
     R"json(["\ud83d\ude00", "a\ud83d\ude00b", "\ud800\udc00"])json",
     "\n"
     "    - \"\\U0001F600\"\n"
     "    - \"a\\U0001F600b\"\n"
     "    - \"\\U00010000\"\n"},
    {"byte order mark",
     R"json(["\ufeffab", "a\ufeff", "\ufeff"])json",
     "\n"
     "    - \"\\uFEFF\\x61\\x62\"\n"
     "    - \"a\\uFEFF\"\n"
     "    - \"\\uFEFF\"\n"},
    {"line and paragraph separators",
     R"json(["\u2028", "a\u2028b", "a\u2029", "a\u2028\u2028b"])json",
     "\n"
     "    - '\xE2\x80\xA8"
     "'\n"
     "    - 'a\xE2\x80\xA8"
     "      b'\n"
     "    - 'a\xE2\x80\xA9"
     "'\n"
     "    - 'a\xE2\x80\xA8"
     "\xE2\x80\xA8"
     "      b'\n"},
    // Not kubectl's bytes: kubectl writes a literal block with the LS raw,
    // which tjrender's reader refuses (goyaml and YAML 1.2 read it apart).
    {"line separator beside line feeds is double-quoted, not a literal block",
     R"json(["a\u2028b\nc\n"])json",
     "\n"
     "    - \"a\\Lb\\nc\\n\"\n"},
    {"next line folds on the way through JSON",
     R"json(["a\u0085b", "a \u0085 b", "a\u0085\u0085b", "\u0085", "a\u0085", "a\u0085\u0085\u0085"])json",
     "\n"
     "    - a b\n"
     "    - a b\n"
     "    - |-\n"
     "      a\n"
     "      b\n"
     "    - ' '\n"
     "    - 'a '\n"
     "    - |+\n"
     "      a\n"
     "\n"},
};

INSTANTIATE_TEST_SUITE_P(Kubectl, WriterScalarTest, ::testing::ValuesIn(kCases), testing::CaseName);

}  // namespace
}  // namespace tjr::yaml
