// Quantity decoding against a table whose expectations come from kubectl
// v1.32.4 (its resource.Quantity code is byte-identical to apimachinery
// v0.34.1's): each value was put in a Pod's resources.requests and read
// back with `kubectl set resources --local -f pod.json -o json`, which
// decodes into the typed Pod (Quantity.UnmarshalJSON) and prints
// json.Marshal output. The input column is the JSON that encoding/json
// writes for the node, so numbers appear as Go formats them.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "doc/number_format.h"
#include "typed/quantity.h"

namespace tjr::typed {
namespace {

struct Expected {
  std::string text;
  bool error = false;
  Expected(const char* t) : text(t) {}  // NOLINT: a table cell
  Expected(std::string t, bool e) : text(std::move(t)), error(e) {}
};
Expected Err(std::string_view message) { return Expected(std::string(message), true); }

struct QuantityCase {
  doc::Node input;
  Expected expected;
};

doc::Node Str(const char* s) { return doc::Node::String(s); }
doc::Node Int(std::int64_t v) { return doc::Node::Int(v); }
doc::Node Null() { return doc::Node::Null(); }
doc::Node Bool(bool b) { return doc::Node::Bool(b); }
// A float whose encoding/json text is `go_text` (checked by Check).
doc::Node Float(const char* go_text) {
  return doc::Node::Float(std::strtod(go_text, nullptr), {}, go_text);
}
template <class... Items>
doc::Node SeqOf(Items... items) {
  doc::Node seq = doc::Node::Sequence();
  (seq.push_back(items), ...);
  return seq;
}
doc::Node MapOf() { return doc::Node::Mapping(); }
doc::Node MapOf(const char* key, doc::Node value) {
  doc::Node map = doc::Node::Mapping();
  map.Set(key, std::move(value));
  return map;
}

// Inputs from apimachinery's quantity_test.go (TestQuantityParse with its
// "-" and "+" variants, TestQuantityString's canonical and alternate forms,
// TestQuantityParseEmit, TestJSONWhitespace and the invalid list).
const QuantityCase kUpstreamInputs[] = {
    {Str("0"), "0"},
    {Str("0n"), "0"},
    {Str("0u"), "0"},
    {Str("0m"), "0"},
    {Str("0Ki"), "0"},
    {Str("0k"), "0"},
    {Str("0Mi"), "0"},
    {Str("0M"), "0"},
    {Str("0Gi"), "0"},
    {Str("0G"), "0"},
    {Str("0Ti"), "0"},
    {Str("0T"), "0"},
    {Str("1"), "1"},
    {Str("1Ki"), "1Ki"},
    {Str("8Ki"), "8Ki"},
    {Str("7Mi"), "7Mi"},
    {Str("6Gi"), "6Gi"},
    {Str("5Ti"), "5Ti"},
    {Str("4Pi"), "4Pi"},
    {Str("3Ei"), "3Ei"},
    {Str("10Ti"), "10Ti"},
    {Str("100Ti"), "100Ti"},
    {Str("5n"), "5n"},
    {Str("4u"), "4u"},
    {Str("3m"), "3m"},
    {Str("9"), "9"},
    {Str("8k"), "8k"},
    {Str("50k"), "50k"},
    {Str("7M"), "7M"},
    {Str("6G"), "6G"},
    {Str("5T"), "5T"},
    {Str("40T"), "40T"},
    {Str("300T"), "300T"},
    {Str("2P"), "2P"},
    {Str("1E"), "1E"},
    {Str("1E-3"), "1E-3"},
    {Str("1e3"), "1e3"},
    {Str("1E6"), "1E6"},
    {Str("1e9"), "1e9"},
    {Str("1E12"), "1E12"},
    {Str("1e15"), "1e15"},
    {Str("1E18"), "1E18"},
    {Str("1e14"), "100e12"},
    {Str("1e13"), "10e12"},
    {Str("100.035k"), "100.035k"},
    {Str("0.001"), "1m"},
    {Str("0.0005k"), "500m"},
    {Str("0.005"), "5m"},
    {Str("0.05"), "50m"},
    {Str("0.5"), "500m"},
    {Str("0.00050k"), "500m"},
    {Str("0.00500"), "5m"},
    {Str("0.05000"), "50m"},
    {Str("0.50000"), "500m"},
    {Str("0.5e0"), "500e-3"},
    {Str("0.5e-1"), "50e-3"},
    {Str("0.5e-2"), "5e-3"},
    {Str("10.035M"), "10.035M"},
    {Str("1.2e3"), "1200"},
    {Str("1.3E+6"), "1300e3"},
    {Str("1.40e9"), "1400e6"},
    {Str("1.53E12"), "1530e9"},
    {Str("1.6e15"), "1600e12"},
    {Str("1.7E18"), "1700e15"},
    {Str("9.01"), "9010m"},
    {Str("8.1k"), "8100"},
    {Str("7.123456M"), "7.123456M"},
    {Str("6.987654321G"), "6.987654321G"},
    {Str("5.444T"), "5.444T"},
    {Str("40.1T"), "40100G"},
    {Str("300.2T"), "300200G"},
    {Str("2.5P"), "2500T"},
    {Str("1.01E"), "1010P"},
    {Str("3.001n"), "4n"},
    {Str("1.1E-9"), "2e-9"},
    {Str("0.0000000001"), "1n"},
    {Str("0.0000000005"), "1n"},
    {Str("0.00000000050"), "1n"},
    {Str("0.5e-9"), "1e-9"},
    {Str("0.9n"), "1n"},
    {Str("0.00000012345"), "124n"},
    {Str("0.00000012354"), "124n"},
    {Str("9Ei"), "9223372036854775807"},
    {Str("9223372036854775807Ki"), "9223372036854775807"},
    {Str("12E"), "12E"},
    {Str("100.035Ki"), "102435840m"},
    {Str("0.5Mi"), "512Ki"},
    {Str("0.05Gi"), "53687091200m"},
    {Str("0.025Ti"), "27487790694400m"},
    {Str("0.000000000001Ki"), "2n"},
    {Str(".001"), "1m"},
    {Str(".0001k"), "100m"},
    {Str("1."), "1."},
    {Str("1.G"), "1.G"},
    {Str("-0"), "0"},
    {Str("-0n"), "0"},
    {Str("-0Ki"), "0"},
    {Str("-1"), "-1"},
    {Str("-1Ki"), "-1Ki"},
    {Str("-8Ki"), "-8Ki"},
    {Str("-7Mi"), "-7Mi"},
    {Str("-3Ei"), "-3Ei"},
    {Str("-5n"), "-5n"},
    {Str("-3m"), "-3m"},
    {Str("-8k"), "-8k"},
    {Str("-1E"), "-1E"},
    {Str("-1E-3"), "-1E-3"},
    {Str("-1e3"), "-1e3"},
    {Str("-100.035k"), "-100.035k"},
    {Str("-0.001"), "-1m"},
    {Str("-0.0005k"), "-500m"},
    {Str("-0.5"), "-500m"},
    {Str("-0.5e-2"), "-5e-3"},
    {Str("-1.2e3"), "-1200"},
    {Str("-9.01"), "-9010m"},
    {Str("-6.987654321G"), "-6.987654321G"},
    {Str("-1.01E"), "-1010P"},
    {Str("-3.001n"), "-4n"},
    {Str("-1.1E-9"), "-2e-9"},
    {Str("-0.0000000001"), "-1n"},
    {Str("-0.5e-9"), "-1e-9"},
    {Str("-0.00000012345"), "-124n"},
    {Str("-9Ei"), "-9223372036854775807"},
    {Str("-9223372036854775807Ki"), "-9223372036854775807"},
    {Str("-100.035Ki"), "-102435840m"},
    {Str("-0.5Mi"), "-512Ki"},
    {Str("-0.000000000001Ki"), "-2n"},
    {Str("-.001"), "-1m"},
    {Str("-1."), "-1."},
    {Str("-1.G"), "-1.G"},
    {Str("+0"), "0"},
    {Str("+1"), "+1"},
    {Str("+1Ki"), "+1Ki"},
    {Str("+8Ki"), "8Ki"},
    {Str("+5n"), "+5n"},
    {Str("+3m"), "+3m"},
    {Str("+1E"), "+1E"},
    {Str("+1e3"), "+1e3"},
    {Str("+1E6"), "+1E6"},
    {Str("+100.035k"), "+100.035k"},
    {Str("+0.001"), "1m"},
    {Str("+0.5"), "500m"},
    {Str("+1.2e3"), "1200"},
    {Str("+9.01"), "9010m"},
    {Str("+3.001n"), "4n"},
    {Str("+9Ei"), "9223372036854775807"},
    {Str("+100.035Ki"), "102435840m"},
    {Str("+.001"), "1m"},
    {Str("+1."), "+1."},
    {Str("+1.G"), "+1.G"},
    {Str("1Gi"), "1Gi"},
    {Str("1024Mi"), "1Gi"},
    {Str("300Mi"), "300Mi"},
    {Str("307200Ki"), "300Mi"},
    {Str("6Ki"), "6Ki"},
    {Str("1001Gi"), "1001Gi"},
    {Str("1025024Mi"), "1001Gi"},
    {Str("1Ti"), "1Ti"},
    {Str("1024Gi"), "1Ti"},
    {Str("5"), "5"},
    {Str("5000m"), "5"},
    {Str("500m"), "500m"},
    {Str("1G"), "1G"},
    {Str("1000M"), "1G"},
    {Str("0.001T"), "1G"},
    {Str("1m"), "1m"},
    {Str("1000u"), "1m"},
    {Str("80m"), "80m"},
    {Str("1080m"), "1080m"},
    {Str("1.08"), "1080m"},
    {Str("1080000000n"), "1080m"},
    {Str("300M"), "300M"},
    {Str("1T"), "1T"},
    {Str("1234567M"), "1234567M"},
    {Str("1234567m"), "1234567m"},
    {Str("3k"), "3k"},
    {Str("1025"), "1025"},
    {Str("1e-3"), "1e-3"},
    {Str("0.001e0"), "1e-3"},
    {Str("1e-9"), "1e-9"},
    {Str("1000e-12"), "1e-9"},
    {Str("80e-3"), "80e-3"},
    {Str("300e6"), "300e6"},
    {Str("1e12"), "1e12"},
    {Str("3e3"), "3e3"},
    {Str(".001e12"), "1e9"},
    {Str("00"), "0"},
    {Str("1n"), "1n"},
    {Str("80n"), "80n"},
    {Str("1080n"), "1080n"},
    {Str("1u"), "1u"},
    {Str("80u"), "80u"},
    {Str("1080u"), "1080u"},
    {Str("1Mi"), "1Mi"},
    {Str(".001Ki"), "1024m"},
    {Str(".000001Ki"), "1024u"},
    {Str(".000000001Ki"), "1024n"},
    {Str(".000000000001Ki"), "2n"},
    {Str("-1Mi"), "-1Mi"},
    {Str("-1Gi"), "-1Gi"},
    {Str("-1024Mi"), "-1Gi"},
    {Str("-1000M"), "-1G"},
    {Str("-.001Ki"), "-1024m"},
    {Str("-.000001Ki"), "-1024u"},
    {Str("-.000000001Ki"), "-1024n"},
    {Str("-.000000000001Ki"), "-2n"},
    {Str(" 1"), "1"},
    {Str("1 "), "1"},
    {Int(1LL), "1"},
    {Int(10LL), "10"},
    {Int(-1LL), "-1"},
    {Str("1.1.M"), Err(kQuantityFormatWrong)},
    {Str("1+1.0M"), Err(kQuantityFormatWrong)},
    {Str("0.1mi"), Err(kQuantitySuffix)},
    {Str("0.1am"), Err(kQuantityFormatWrong)},
    {Str("aoeu"), Err(kQuantityFormatWrong)},
    {Str(".5i"), Err(kQuantitySuffix)},
    {Str("1i"), Err(kQuantitySuffix)},
    {Str("-3.01i"), Err(kQuantitySuffix)},
    {Str("-3.01e-"), Err(kQuantitySuffix)},
};

// Further inputs: brief examples, format keeping, rounding, values past
// int64, int32 exponent truncation, whitespace, errors and JSON numbers.
const QuantityCase kMoreInputs[] = {
    {Str("4096Mi"), "4Gi"},
    {Str("1.5Gi"), "1536Mi"},
    {Str("12e6"), "12e6"},
    {Str("100M"), "100M"},
    {Str("0.1"), "100m"},
    {Str("1.500"), "1.500"},
    {Str("01"), "01"},
    {Str("001Ki"), "001Ki"},
    {Str("1000E"), "1"},
    {Str("1000000E"), "1"},
    {Str("1e4294967296"), "1e4294967296"},
    {Str("2048Ki"), "2Mi"},
    {Str("1536Ki"), "1536Ki"},
    {Str("12Ki"), "12Ki"},
    {Str("24Ki"), "24Ki"},
    {Str("1023Ki"), "1023Ki"},
    {Str("1023"), "1023"},
    {Str("1024"), "1024"},
    {Str("1025Ki"), "1025Ki"},
    {Str("1.5Ki"), "1536"},
    {Str("0.5Ki"), "512"},
    {Str("1.5"), "1500m"},
    {Str("1.0"), "1"},
    {Str("1e30"), "1e30"},
    {Str("1e31"), "10e30"},
    {Str("1e21"), "1e21"},
    {Str("123e30"), "123e30"},
    {Str("123456789012345678"), "123456789012345678"},
    {Str("1234567890123456789"), "1234567890123456789"},
    {Str("12345678901234567890"), "12345678901234567890"},
    {Str("123456789012345678901234567890"), "123456789012345678901234567890"},
    {Str("-123456789012345678901234567890"), "-123456789012345678901234567890"},
    {Str("1.000000000000000000001"), "1000000001n"},
    {Str("0.1234567890123456789"), "123456790n"},
    {Str("999999999999999999e31"), "9999999999999999990e30"},
    {Str("999999999999999999"), "999999999999999999"},
    {Str("9223372036854775807"), "9223372036854775807"},
    {Str("9223372036854775808"), "9223372036854775808"},
    {Str("9223372036854775807m"), "9223372036854775807m"},
    {Str("10000000000000000000000Ki"), "9223372036854775807"},
    {Str("8Ei"), "9223372036854775807"},
    {Str("7.9Ei"), "9108079886394091110400m"},
    {Str("8191Pi"), "8191Pi"},
    {Str("1Pi"), "1Pi"},
    {Str("16Pi"), "16Pi"},
    {Str("1.5Pi"), "1536Ti"},
    {Str("1024Ei"), "9223372036854775807"},
    {Str("4611686018427387904"), "4611686018427387904"},
    {Str("1099511627776"), "1099511627776"},
    {Str("1099511627776Ki"), "1Pi"},
    {Str("0.0000000000001"), "1n"},
    {Str("1e-20"), "1e-9"},
    {Str("1.e-20"), "1e-9"},
    {Str("5e-10"), "1e-9"},
    {Str("1n"), "1n"},
    {Str("1.5n"), "2n"},
    {Str("100000n"), "100u"},
    {Str("1000000000n"), "1"},
    {Str("1e-12"), "1e-9"},
    {Str("1E"), "1E"},
    {Str("1P"), "1P"},
    {Str("1.5e-3"), "1500e-6"},
    {Str("1.5e2"), "150"},
    {Str("15e-1"), "1500e-3"},
    {Str("1e2"), "100"},
    {Str("1e1"), "10"},
    {Str("1e0"), "1e0"},
    {Str("1e-1"), "100e-3"},
    {Str("1e-2"), "10e-3"},
    {Str("10e0"), "10e0"},
    {Str("1E+3"), "1E+3"},
    {Str("1e+3"), "1e+3"},
    {Str("1e-0"), "1e-0"},
    {Str("1e+0"), "1e+0"},
    {Str("1e00003"), "1e00003"},
    {Str("0e5"), "0"},
    {Str("0.0e5"), "0"},
    {Str("."), "0"},
    {Str("-."), "0"},
    {Str("+."), "0"},
    {Str(".5Ki"), "512"},
    {Str("1.Ki"), "1.Ki"},
    {Str(".Ki"), "0"},
    {Str("1 Ki"), Err(kQuantityFormatWrong)},
    {Str("1Ki "), "1Ki"},
    {Str("1\xc2""\xa0""Ki"), Err(kQuantityFormatWrong)},
    {Str("1 "), "1"},
    {Str(" "), Err(kQuantityFormatWrong)},
    {Str("  1  "), "1"},
    {Str("1k"), "1k"},
    {Str("1K"), Err(kQuantitySuffix)},
    {Str("1Kib"), Err(kQuantityFormatWrong)},
    {Str("1ki"), Err(kQuantitySuffix)},
    {Str("1KI"), Err(kQuantityFormatWrong)},
    {Str("1mi"), Err(kQuantitySuffix)},
    {Str("1Mi1"), Err(kQuantitySuffix)},
    {Str("1e3k"), Err(kQuantityFormatWrong)},
    {Str("1ee3"), Err(kQuantitySuffix)},
    {Str("1e-"), Err(kQuantitySuffix)},
    {Str("1e+"), Err(kQuantitySuffix)},
    {Str("1E-"), Err(kQuantitySuffix)},
    {Str("1e"), Err(kQuantitySuffix)},
    {Str("-"), "0"},
    {Str("+"), "0"},
    {Str("--1"), Err(kQuantitySuffix)},
    {Str("+-1"), Err(kQuantitySuffix)},
    {Str("1e99999999999999999999"), Err(kQuantitySuffix)},
    {Str("1e9223372036854775807"), "100e-3"},
    {Str("1e-9223372036854775808"), "1e-9223372036854775808"},
    {Str("1e9223372036854775808"), Err(kQuantitySuffix)},
    {Str("1a"), Err(kQuantityFormatWrong)},
    {Str("1.5a"), Err(kQuantityFormatWrong)},
    {Str("1\t"), Err(kQuantityFormatWrong)},
    {Str("1\""), Err(kQuantityFormatWrong)},
    {Str("1<"), Err(kQuantityFormatWrong)},
    {Str("&1"), Err(kQuantityFormatWrong)},
    {Str("1\xc2""\xa0"""), "1"},
    {Str("1\xe3""\x80""\x80"""), "1"},
    {Str("\xc2""\x85""1"), "1"},
    {Str("1\xe2""\x80""\xa8"""), Err(kQuantityFormatWrong)},
    {Str(""), Err(kQuantityFormatWrong)},
    {Bool(true), Err(kQuantityFormatWrong)},
    {Bool(false), Err(kQuantityFormatWrong)},
    {Null(), "0"},
    {MapOf(), Err(kQuantityFormatWrong)},
    {SeqOf(), Err(kQuantityFormatWrong)},
    {SeqOf(Int(1LL)), Err(kQuantityFormatWrong)},
    {MapOf("a", Int(1LL)), Err(kQuantityFormatWrong)},
    {Int(0LL), "0"},
    {Int(1LL), "1"},
    {Int(-1LL), "-1"},
    {Int(1000LL), "1k"},
    {Int(1024LL), "1024"},
    {Int(12345678901234567LL), "12345678901234567"},
    {Int(9223372036854775807LL), "9223372036854775807"},
    {Int(INT64_MIN), "-9223372036854775808"},
    {Float("1.5"), "1500m"},
    {Float("0.1"), "100m"},
    {Float("0.5"), "500m"},
    {Float("-0.5"), "-500m"},
    {Float("0.001"), "1m"},
    {Float("0.0001"), "100u"},
    {Float("0.000001"), "1u"},
    {Float("1e-7"), "100e-9"},
    {Float("1.5e-7"), "150e-9"},
    {Float("123.456"), "123.456"},
    {Float("1e+21"), "1e+21"},
    {Float("1.2345e+25"), "1.2345e+25"},
    {Float("12345678901234567000"), "12345678901234567k"},
    {Float("100000000000000000000"), "100E"},
    {Float("-0"), "0"},
    {Float("3.141592653589793"), "3141592654n"},
    {Str("1\xef""\xbb""\xbf"""), Err(kQuantityFormatWrong)},
    {Str("1\xe2""\x80""\x8b"""), Err(kQuantityFormatWrong)},
    {Str("\xe2""\x80""\x83""\xe2""\x80""\x85""1\xe2""\x81""\x9f"""), "1"},
    {Str("1\xe1""\x9a""\x80"""), "1"},
};

std::string Describe(const doc::Node& input) {
  if (input.is_string()) return "\"" + input.string_value() + "\"";
  if (input.is_int()) return std::to_string(input.int_value());
  if (input.is_float()) return input.source_text();
  return std::string(doc::KindName(input.kind()));
}

void Check(const QuantityCase& c) {
  if (c.input.is_float()) {
    ASSERT_EQ(doc::FormatFloatJson(c.input.float_value()), c.input.source_text())
        << "table row is not Go's float text";
  }
  Quantity q;
  Status status = q.UnmarshalJson(c.input);
  if (c.expected.error) {
    ASSERT_FALSE(status.ok()) << "decoded to " << q.String();
    EXPECT_EQ(status.error().message, c.expected.text);
  } else {
    ASSERT_TRUE(status.ok()) << status.error().message;
    EXPECT_EQ(q.String(), c.expected.text);
  }
}

TEST(QuantityTableTest, UpstreamInputs) {
  for (const QuantityCase& c : kUpstreamInputs) {
    SCOPED_TRACE(Describe(c.input));
    Check(c);
  }
}

TEST(QuantityTableTest, MoreInputs) {
  for (const QuantityCase& c : kMoreInputs) {
    SCOPED_TRACE(Describe(c.input));
    Check(c);
  }
}

}  // namespace
}  // namespace tjr::typed
