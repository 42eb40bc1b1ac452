#include "json/json.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <string>

#include "json/number.h"

namespace tjr::json {
namespace {

doc::Node MustRead(std::string_view text) {
  Result<doc::Node> result = Read(text, "in.json");
  EXPECT_TRUE(result.ok()) << result.error().ToString();
  return result.ok() ? result.value() : doc::Node();
}

std::string ErrorOf(std::string_view text, const ReadOptions& options = {}) {
  Result<doc::Node> result = Read(text, "in.json", options);
  EXPECT_FALSE(result.ok());
  if (result.ok()) return "";
  EXPECT_EQ(result.error().category, Category::kInput);
  return result.error().ToString();
}

// --- Reading: number typing as apimachinery's util/json does it.

TEST(JsonReadTest, NumbersFollowUtilJson) {
  doc::Node v = MustRead(
      R"([0, -0, 42, -7, 9223372036854775807, -9223372036854775808, 9223372036854775808,
          1.0, 1.5, 1e2, 1E-2, -0.0, 18446744073709551616, 1e-400])");
  ASSERT_EQ(v.size(), 14u);
  EXPECT_TRUE(v[0].is_int());
  EXPECT_EQ(v[0].int_value(), 0);
  EXPECT_TRUE(v[1].is_int());  // ParseInt("-0") succeeds.
  EXPECT_EQ(v[2].int_value(), 42);
  EXPECT_EQ(v[3].int_value(), -7);
  EXPECT_EQ(v[4].int_value(), INT64_MAX);
  EXPECT_EQ(v[5].int_value(), INT64_MIN);
  ASSERT_TRUE(v[6].is_float());
  EXPECT_EQ(v[6].float_value(), 9223372036854775808.0);
  ASSERT_TRUE(v[7].is_float());  // "1.0" is no int64 literal.
  EXPECT_EQ(v[7].float_value(), 1.0);
  EXPECT_EQ(v[7].source_text(), "1.0");
  EXPECT_EQ(v[8].float_value(), 1.5);
  ASSERT_TRUE(v[9].is_float());
  EXPECT_EQ(v[9].float_value(), 100.0);
  EXPECT_EQ(v[9].source_text(), "1e2");
  EXPECT_EQ(v[10].float_value(), 0.01);
  ASSERT_TRUE(v[11].is_float());
  EXPECT_TRUE(std::signbit(v[11].float_value()));
  EXPECT_EQ(v[12].float_value(), 18446744073709551616.0);
  ASSERT_TRUE(v[13].is_float());  // Go's ParseFloat rounds underflow to zero.
  EXPECT_EQ(v[13].float_value(), 0.0);
}

TEST(JsonReadTest, FloatOverflowIsAnError) {
  EXPECT_EQ(ErrorOf("{\"a\": 1e400}"), "in.json:1:7: error: malformed JSON: number too big to be stored in double");
  EXPECT_EQ(ErrorOf("[10e308]"), "in.json:1:2: error: number 10e308 is out of the range of a 64-bit float");
}

TEST(JsonReadTest, ScalarsAndContainers) {
  doc::Node v = MustRead(R"({"s": "x\u00e9\n", "t": true, "f": false, "n": null, "e": {}, "l": []})");
  ASSERT_TRUE(v.is_mapping());
  EXPECT_EQ(v.Find("s")->string_value(), "x\xc3\xa9\n");
  EXPECT_TRUE(v.Find("t")->bool_value());
  EXPECT_FALSE(v.Find("f")->bool_value());
  EXPECT_TRUE(v.Find("n")->is_null());
  EXPECT_TRUE(v.Find("e")->is_mapping());
  EXPECT_TRUE(v.Find("l")->is_sequence());
  // Fields keep document order.
  ASSERT_EQ(v.fields().size(), 6u);
  EXPECT_EQ(v.fields()[0].key, "s");
  EXPECT_EQ(v.fields()[5].key, "l");
}

TEST(JsonReadTest, InvalidUtf8BecomesReplacementCharacters) {
  doc::Node v = MustRead("[\"a\xff" "b\xe2\x82\"]");
  // Go replaces each byte that starts no valid sequence.
  EXPECT_EQ(v[0].string_value(), "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd");
}

// encoding/json: a surrogate escape that is not the first half of a valid
// pair reads as one U+FFFD (unquoteBytes, decode.go:1377-1395); Go 1.19's
// encoding/json, run on each of these, gave the same strings.
TEST(JsonReadTest, LoneSurrogateEscapesReadAsGoReadsThem) {
  const std::string fffd = "\xef\xbf\xbd";
  doc::Node v = MustRead(R"(["\ud800", "\udc00", "a\udc00\ud800b", "\ud83d\ude00", "\ud800\ud83d\ude00",)"
                         R"( "\ud800\u0041", "\ud800x", "\\ud800", "\uDBFF\uDFFF"])");
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(v[0].string_value(), fffd);
  EXPECT_EQ(v[1].string_value(), fffd);
  EXPECT_EQ(v[2].string_value(), "a" + fffd + fffd + "b");
  EXPECT_EQ(v[3].string_value(), "\xf0\x9f\x98\x80");  // a valid pair
  EXPECT_EQ(v[4].string_value(), fffd + "\xf0\x9f\x98\x80");
  EXPECT_EQ(v[5].string_value(), fffd + "A");
  EXPECT_EQ(v[6].string_value(), fffd + "x");
  EXPECT_EQ(v[7].string_value(), "\\ud800");  // an escaped backslash, then text
  EXPECT_EQ(v[8].string_value(), "\xf4\x8f\xbf\xbf");
}

TEST(JsonReadTest, LoneSurrogateKeysAndLocationsUnchanged) {
  doc::Node v = MustRead("{\"a\": 1,\n \"k\\udc00\": \"\\ud800\", \"z\": true}");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v.fields()[1].key, "k\xef\xbf\xbd");
  EXPECT_EQ(v.fields()[1].key_location.ToString(), "in.json:2:2");
  EXPECT_EQ(v.fields()[2].value.location().ToString(), "in.json:2:28");
  Result<std::vector<doc::Node>> stream = ReadStream("\"\\ud800\" \"\\udc00\"", "s.json");
  ASSERT_TRUE(stream.ok()) << stream.error().ToString();
  EXPECT_EQ((*stream)[1].string_value(), "\xef\xbf\xbd");
  // A broken escape is still refused, as encoding/json's scanner does.
  EXPECT_NE(ErrorOf(R"(["\ud80"])").find("malformed JSON"), std::string::npos);
}

// --- Locations.

TEST(JsonReadTest, EveryNodeAndKeyHasALocation) {
  doc::Node v = MustRead("{\n  \"a\": [1, \"x\",\n    {\"b\": null}],\n  \"\xc3\xa9\": true, \"c\": -2.5\n}");
  EXPECT_EQ(v.location().ToString(), "in.json:1:1");
  const doc::Field& a = v.fields()[0];
  EXPECT_EQ(a.key_location.ToString(), "in.json:2:3");
  EXPECT_EQ(a.value.location().ToString(), "in.json:2:8");
  EXPECT_EQ(a.value[0].location().ToString(), "in.json:2:9");
  EXPECT_EQ(a.value[1].location().ToString(), "in.json:2:12");
  EXPECT_EQ(a.value[2].location().ToString(), "in.json:3:5");
  EXPECT_EQ(a.value[2].fields()[0].key_location.ToString(), "in.json:3:6");
  EXPECT_EQ(a.value[2].fields()[0].value.location().ToString(), "in.json:3:11");
  // Columns count characters: the two-byte key is one column wide.
  EXPECT_EQ(v.fields()[1].key_location.ToString(), "in.json:4:3");
  EXPECT_EQ(v.fields()[1].value.location().ToString(), "in.json:4:8");
  EXPECT_EQ(v.fields()[2].key_location.ToString(), "in.json:4:14");
  EXPECT_EQ(v.fields()[2].value.location().ToString(), "in.json:4:19");
}

// Without locations: the same tree, nodes and keys named by file only, and
// the same errors as with them.
TEST(JsonReadTest, WithoutLocationsTheSameTreeAndErrorsStillLocated) {
  const std::string text = "{\n  \"a\": [1, \"x\\\"y\",\n    {\"b\": null}],\n  \"c\": -2.5, \"d\": 12345678901234567890}";
  ReadOptions bare;
  bare.locations = false;
  Result<doc::Node> plain = Read(text, "in.json", bare);
  ASSERT_TRUE(plain.ok()) << plain.error().ToString();
  EXPECT_TRUE(*plain == MustRead(text));
  EXPECT_EQ(Write(*plain, false), Write(MustRead(text), false));
  EXPECT_EQ(plain->location().ToString(), "in.json");
  EXPECT_EQ(plain->fields()[0].key_location.ToString(), "in.json");
  EXPECT_EQ(plain->Find("a")->items()[2].Find("b")->location().ToString(), "in.json");
  for (const char* wrong : {"{\n  \"a\": 1,\n  \"a\": 2}", "[1,\n 2,,]", "[[[1]]]", "[1e999]", "[\"\x01\"]"}) {
    ReadOptions tracked;
    tracked.max_depth = 2;
    bare.max_depth = 2;
    EXPECT_EQ(ErrorOf(wrong, bare), ErrorOf(wrong, tracked)) << wrong;
    const std::string error = ErrorOf(wrong, bare);
    EXPECT_TRUE(error.size() > 8 && error.compare(0, 8, "in.json:") == 0 && std::isdigit(error[8])) << error;
  }
}

TEST(JsonReadTest, StringsWithStructuralCharactersDoNotConfuseLocations) {
  doc::Node v = MustRead("[\"a, [b\\\" {\", 7]");
  EXPECT_EQ(v[0].string_value(), "a, [b\" {");
  EXPECT_EQ(v[1].location().ToString(), "in.json:1:15");
}

// --- Errors.

TEST(JsonReadTest, DuplicateKeysNameBothLocations) {
  EXPECT_EQ(ErrorOf("{\"a\": 1,\n \"b\": 2,\n \"a\": 3}"),
            "in.json:3:2: error: key \"a\" already set in map (first set at in.json:1:2)");
}

TEST(JsonReadTest, DuplicateKeysFoundInLargeObjects) {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",";
  text += "\"k57\": 0}";
  EXPECT_NE(ErrorOf(text).find("key \"k57\" already set in map"), std::string::npos);
  // The same keys once each are fine, and the same key in sibling objects too.
  EXPECT_EQ(MustRead(R"([{"a": 1}, {"a": 2}])").size(), 2u);
}

TEST(JsonReadTest, MalformedInputNamesPosition) {
  EXPECT_EQ(ErrorOf("{\"a\": 1\n \"b\": 2}"),
            "in.json:2:2: error: malformed JSON: missing a comma or '}' after an object member");
  EXPECT_EQ(ErrorOf("[1, 2"),
            "in.json:1:6: error: malformed JSON: missing a comma or ']' after an array element");
  EXPECT_EQ(ErrorOf("{\"a\": tru}"), "in.json:1:10: error: malformed JSON: invalid value");
  EXPECT_EQ(ErrorOf("  \n "), "in.json:2:2: error: malformed JSON: the document is empty");
  EXPECT_EQ(ErrorOf("{} {}"), "in.json:1:4: error: malformed JSON: unexpected content after the document");
  EXPECT_EQ(ErrorOf("[\"a\nb\"]"),
            "in.json:1:4: error: malformed JSON: control character in string");
}

TEST(JsonReadTest, ValuesPerDocument) {
  ReadOptions options;
  options.max_document_values = 4;
  EXPECT_TRUE(Read("{\"a\": [1, 2]}", "in.json", options).ok());  // 1, 2, the array, the object
  EXPECT_EQ(ErrorOf("[1, 2, 3, 4, 5]", options),
            "in.json:1:14: error: the document holds more than 4 values, more than any object the API server accepts");
  // Each value of a stream has its own count.
  Result<std::vector<doc::Node>> stream = ReadStream("[1, 2] [1, 2] [1, 2]", "in.json", options);
  EXPECT_TRUE(stream.ok());
}

TEST(JsonReadTest, DepthLimit) {
  ReadOptions options;
  options.max_depth = 10;
  std::string ok = std::string(10, '[') + std::string(10, ']');
  EXPECT_TRUE(Read(ok, "in.json", options).ok());
  std::string deep = std::string(11, '[') + std::string(11, ']');
  EXPECT_EQ(ErrorOf(deep, options),
            "in.json:1:11: error: JSON nesting exceeds the maximum depth of 10");
  // The default limit stops a hostile document long before the stack is at risk.
  std::string hostile = std::string(200000, '[');
  EXPECT_NE(ErrorOf(hostile).find("maximum depth of 1000"), std::string::npos);
}

TEST(JsonReadTest, SizeLimit) {
  ReadOptions options;
  options.max_document_bytes = 8;
  EXPECT_TRUE(Read("[1,2,3]", "in.json", options).ok());
  EXPECT_EQ(ErrorOf("[1,2,3,4,5]", options),
            "in.json: error: JSON document of 11 bytes exceeds the limit of 8 bytes");
}

TEST(JsonReadStreamTest, ConcatenatedValues) {
  Result<std::vector<doc::Node>> values = ReadStream("{\"a\": 1}\n{\"b\": 2}{}  null 3", "s.json");
  ASSERT_TRUE(values.ok()) << values.error().ToString();
  ASSERT_EQ(values->size(), 5u);
  EXPECT_EQ((*values)[1].Find("b")->location().ToString(), "s.json:2:7");
  EXPECT_TRUE((*values)[3].is_null());
  EXPECT_EQ((*values)[4].int_value(), 3);
  EXPECT_TRUE(ReadStream(" \n ", "s.json")->empty());
}

TEST(JsonReadStreamTest, ErrorInLaterValue) {
  Result<std::vector<doc::Node>> values = ReadStream("{}\n{\"a\" 1}", "s.json");
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.error().ToString(),
            "s.json:2:6: error: malformed JSON: missing a colon after a name of object member");
}

TEST(JsonReadStreamTest, SizeLimitAppliesPerValue) {
  ReadOptions options;
  options.max_document_bytes = 10;
  EXPECT_TRUE(ReadStream("[1,2,3] [4,5,6] [7,8,9]", "s.json", options).ok());
  Result<std::vector<doc::Node>> values = ReadStream("[1] [1,2,3,4,5,6,7]", "s.json", options);
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.error().ToString(), "s.json:1:5: error: JSON document exceeds the limit of 10 bytes");
}

// --- Writing.

TEST(JsonWriteTest, CompactMatchesGoMarshal) {
  doc::Node v = MustRead(R"({"b": [1, -2.5, true, null, "s"], "a": {}, "c": [], "B": {"y": 1, "x": 2}})");
  EXPECT_EQ(Write(v, false), R"({"B":{"x":2,"y":1},"a":{},"b":[1,-2.5,true,null,"s"],"c":[]})");
  EXPECT_EQ(Write(doc::Node::String("x"), false), "\"x\"");
  EXPECT_EQ(Write(doc::Node(), true), "null\n");
}

// Bytes from `kubectl patch --local -f w1.json --type merge -p '{}' -o json`
// (kubectl v1.32.4), a fixed point of kubectl's read/print cycle: reading
// it and writing it pretty must give the same bytes back.
constexpr char kKubectlPrinted[] =
    "{\n"
    "    \"apiVersion\": \"v1\",\n"
    "    \"data\": {\n"
    "        \"Z\": \"2\",\n"
    "        \"_\": \"3\",\n"
    "        \"a\": \"5\",\n"
    "        \"aa\": \"4\",\n"
    "        \"z\": \"1\",\n"
    "        \"~\": \"7\",\n"
    "        \"\xc3\xa9\": \"6\"\n"
    "    },\n"
    "    \"kind\": \"ConfigMap\",\n"
    "    \"metadata\": {\n"
    "        \"annotations\": {\n"
    "            \"a\": \"tab\\there\\nnl \\u0001 \\u001f \x7f \\u2028 \\u2029 \\b \\f \\r \xc3\xa9 "
    "\xf0\x9f\x98\x80 \\\"q\\\" \\\\ /\",\n"
    "            \"b\": \"\\u003ca\\u0026b\\u003e\"\n"
    "        },\n"
    "        \"labels\": {},\n"
    "        \"name\": \"x\"\n"
    "    },\n"
    "    \"spec\": {\n"
    "        \"empty\": [],\n"
    "        \"emptyObj\": {},\n"
    "        \"f\": false,\n"
    "        \"floats\": [\n"
    "            1,\n"
    "            1.5,\n"
    "            0,\n"
    "            0,\n"
    "            100000000000000000000,\n"
    "            1e+21,\n"
    "            0.000001,\n"
    "            1e-7,\n"
    "            123456789.12345679,\n"
    "            1.7976931348623157e+308,\n"
    "            5e-324,\n"
    "            0.1,\n"
    "            100,\n"
    "            100,\n"
    "            2.5e-10,\n"
    "            12345678901234567000\n"
    "        ],\n"
    "        \"ints\": [\n"
    "            0,\n"
    "            -1,\n"
    "            9223372036854775807,\n"
    "            -9223372036854775808,\n"
    "            9223372036854776000,\n"
    "            18446744073709552000\n"
    "        ],\n"
    "        \"n\": null,\n"
    "        \"nested\": [\n"
    "            [],\n"
    "            [\n"
    "                {}\n"
    "            ],\n"
    "            {\n"
    "                \"a\": [\n"
    "                    1,\n"
    "                    {\n"
    "                        \"b\": null\n"
    "                    }\n"
    "                ]\n"
    "            }\n"
    "        ],\n"
    "        \"t\": true\n"
    "    }\n"
    "}\n";

TEST(JsonWriteTest, PrettyMatchesKubectlBytes) {
  doc::Node v = MustRead(kKubectlPrinted);
  EXPECT_EQ(Write(v, true), kKubectlPrinted);
}

TEST(JsonWriteTest, FloatsUseGoSpelling) {
  doc::Node v = doc::Node::Sequence();
  v.push_back(doc::Node::Float(-0.0));
  v.push_back(doc::Node::Float(1.0));
  v.push_back(doc::Node::Float(1e21));
  v.push_back(doc::Node::Float(1e-7));
  v.push_back(doc::Node::Float(123456789.123456789));
  EXPECT_EQ(Write(v, false), "[-0,1,1e+21,1e-7,123456789.12345679]");
}

// --- Helpers.

TEST(JsonNumberTest, IntegralFloatAsInt64) {
  EXPECT_EQ(IntegralFloatAsInt64(3.0), 3);
  EXPECT_EQ(IntegralFloatAsInt64(-0.0), 0);
  EXPECT_EQ(IntegralFloatAsInt64(1e18), 1000000000000000000);
  EXPECT_EQ(IntegralFloatAsInt64(-9223372036854775808.0), INT64_MIN);
  EXPECT_EQ(IntegralFloatAsInt64(9223372036854775808.0), std::nullopt);
  EXPECT_EQ(IntegralFloatAsInt64(1.5), std::nullopt);
}

}  // namespace
}  // namespace tjr::json
