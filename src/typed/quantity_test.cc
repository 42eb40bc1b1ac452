#include "typed/quantity.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace tjr::typed {
namespace {

std::string Canonical(std::string_view text) {
  Result<Quantity> q = Quantity::Parse(text);
  if (!q) return "error: " + q.error().message;
  return q->String();
}

TEST(QuantityTest, ZeroValuePrintsZero) {
  Quantity q;
  EXPECT_EQ(q.String(), "0");
  EXPECT_EQ(q.format(), QuantityFormat::kNone);
  EXPECT_TRUE(q.is_zero());
}

// quantity_test.go TestQuantityParse: ParseQuantity itself rejects the empty
// string and surrounding whitespace ("trailing whitespace is forbidden");
// only UnmarshalJSON trims.
TEST(QuantityTest, ParseRejectsEmptyAndSpaces) {
  for (std::string_view text : {"", " 1", "1 "}) {
    Result<Quantity> q = Quantity::Parse(text);
    ASSERT_FALSE(q.ok()) << text;
    EXPECT_EQ(q.error().message, kQuantityFormatWrong);
  }
  Quantity q;
  ASSERT_TRUE(q.UnmarshalJson(doc::Node::String(" 1")).ok());
  EXPECT_EQ(q.String(), "1");
}

// The Format column of quantity_test.go TestQuantityParse; its "-" and "+"
// variants must parse to the same format.
TEST(QuantityTest, FormatFollowsSuffix) {
  struct Case {
    const char* text;
    QuantityFormat format;
  };
  const Case kCases[] = {
      {"0", QuantityFormat::kDecimalSI},          {"0Ki", QuantityFormat::kBinarySI},
      {"0n", QuantityFormat::kDecimalSI},         {"1", QuantityFormat::kDecimalSI},
      {"1Ki", QuantityFormat::kBinarySI},         {"3Ei", QuantityFormat::kBinarySI},
      {"5n", QuantityFormat::kDecimalSI},         {"1E", QuantityFormat::kDecimalSI},
      {"1E-3", QuantityFormat::kDecimalExponent}, {"1e3", QuantityFormat::kDecimalExponent},
      {"0.5e-2", QuantityFormat::kDecimalExponent},
      {"1.1E-9", QuantityFormat::kDecimalExponent},
      {"9Ei", QuantityFormat::kBinarySI},         {"9223372036854775807Ki", QuantityFormat::kBinarySI},
      {"100.035Ki", QuantityFormat::kBinarySI},   {"0.5Mi", QuantityFormat::kBinarySI},
      {"0.025Ti", QuantityFormat::kBinarySI},     {".0001k", QuantityFormat::kDecimalSI},
      // "rounds up, changes format"
      {"0.000000000001Ki", QuantityFormat::kDecimalSI},
  };
  for (const Case& c : kCases) {
    for (std::string sign : {"", "-", "+"}) {
      Result<Quantity> q = Quantity::Parse(sign + c.text);
      ASSERT_TRUE(q.ok()) << sign << c.text;
      EXPECT_EQ(q->format(), c.format) << sign << c.text;
    }
  }
}

// quantity_test.go TestQuantityString: parsing a canonical text keeps it
// (q.s), parsing the alternate spelling keeps nothing and canonicalizes.
TEST(QuantityTest, CanonicalTextIsKept) {
  struct Case {
    const char* canonical;
    const char* alternate;
  };
  const Case kCases[] = {
      {"1Gi", "1024Mi"},  {"300Mi", "307200Ki"}, {"6Ki", ""},      {"1001Gi", "1025024Mi"},
      {"1Ti", "1024Gi"},  {"5", "5000m"},        {"500m", "0.5"},  {"1G", "1000M"},
      {"1G", "0.001T"},   {"1m", "1000u"},       {"80m", ""},      {"1080m", "1.08"},
      {"1080m", "1080000000n"}, {"300M", ""},    {"1T", ""},       {"1234567M", ""},
      {"1234567m", ""},   {"3k", ""},            {"1025", ""},     {"0", "00"},
      {"1e9", ".001e12"}, {"1e-3", "0.001e0"},   {"1e-9", "1000e-12"}, {"80e-3", ""},
      {"300e6", ""},      {"1e12", ""},          {"1e3", ""},      {"3e3", ""},
      {"1n", ""},         {"80n", ""},           {"1080n", ""},    {"1u", ""},
      {"80u", ""},        {"1080u", ""},
  };
  for (const Case& c : kCases) {
    Result<Quantity> q = Quantity::Parse(c.canonical);
    ASSERT_TRUE(q.ok()) << c.canonical;
    EXPECT_EQ(q->kept_text(), c.canonical);
    EXPECT_EQ(q->String(), c.canonical);
    if (*c.alternate == '\0') continue;
    q = Quantity::Parse(c.alternate);
    ASSERT_TRUE(q.ok()) << c.alternate;
    EXPECT_EQ(q->kept_text(), "") << c.alternate;
    EXPECT_EQ(q->String(), c.canonical) << c.alternate;
  }
}

// quantity_test.go TestQuantityParseEmit, with its negated variants.
TEST(QuantityTest, ParseEmit) {
  const std::pair<const char*, const char*> kCases[] = {
      {"1Ki", "1Ki"},          {"1Mi", "1Mi"},   {"1Gi", "1Gi"},           {"1024Mi", "1Gi"},
      {"1000M", "1G"},         {".001Ki", "1024m"}, {".000001Ki", "1024u"},
      {".000000001Ki", "1024n"}, {".000000000001Ki", "2n"},
  };
  for (const auto& [in, out] : kCases) {
    EXPECT_EQ(Canonical(in), out) << in;
    EXPECT_EQ(Canonical(std::string("-") + in), std::string("-") + out) << in;
  }
}

// The examples the Quantity documentation and this project's brief use.
TEST(QuantityTest, DocumentedExamples) {
  EXPECT_EQ(Canonical("1.5"), "1500m");
  EXPECT_EQ(Canonical("1.5Gi"), "1536Mi");
  EXPECT_EQ(Canonical("1000m"), "1");
  EXPECT_EQ(Canonical("4096Mi"), "4Gi");
  EXPECT_EQ(Canonical("0.5"), "500m");
  EXPECT_EQ(Canonical("1e3"), "1e3");  // kept: already canonical DecimalExponent
  EXPECT_EQ(Canonical("0.1"), "100m");
  EXPECT_EQ(Canonical("12e6"), "12e6");
  // The type's comment says "0.1m will rounded up to 1m", but the code
  // keeps nano precision; kubectl agrees.
  EXPECT_EQ(Canonical("0.1m"), "100u");
  EXPECT_EQ(Canonical("0.0001m"), "100n");
  EXPECT_EQ(Canonical("0.0000001m"), "1n");
}

// Quantity.UnmarshalJSON on null clears the amount only: Format and the kept
// text s survive, so MarshalJSON still prints the old text (quantity.go).
TEST(QuantityTest, NullClearsAmountButKeepsText) {
  Quantity kept;
  ASSERT_TRUE(kept.UnmarshalJson(doc::Node::String("1.500")).ok());
  ASSERT_TRUE(kept.UnmarshalJson(doc::Node::Null()).ok());
  EXPECT_TRUE(kept.is_zero());
  EXPECT_EQ(kept.format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(kept.String(), "1.500");

  Quantity computed;
  ASSERT_TRUE(computed.UnmarshalJson(doc::Node::String("1.5Gi")).ok());
  ASSERT_TRUE(computed.UnmarshalJson(doc::Node::Null()).ok());
  EXPECT_EQ(computed.format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(computed.String(), "0");
}

TEST(QuantityTest, FailedDecodeLeavesValue) {
  Quantity q;
  ASSERT_TRUE(q.UnmarshalJson(doc::Node::String("1Gi")).ok());
  Status status = q.UnmarshalJson(doc::Node::String("1Gb"));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, kQuantityFormatWrong);
  EXPECT_EQ(q.String(), "1Gi");
}

TEST(QuantityTest, SignAndZero) {
  EXPECT_TRUE(Quantity::Parse("-1m")->negative());
  EXPECT_FALSE(Quantity::Parse("-0")->negative());
  EXPECT_TRUE(Quantity::Parse("-0")->is_zero());
  EXPECT_TRUE(Quantity::Parse("0.0e5")->is_zero());
  EXPECT_FALSE(Quantity::Parse("0.0000000001")->is_zero());  // rounds up to 1n
}

// Exponents where Go's int32 arithmetic comes near wrapping, or where it
// cannot finish, are refused. For the record, kubectl prints
// "100e1999999998" for the first, does not finish the second within five
// minutes, and prints "150e2147483646" for the third (int32 wrap-around).
TEST(QuantityTest, RefusesExponentsBeyondSupport) {
  for (std::string_view text : {"1e2000000000", "12345678901234567890e1000000",
                                "1.5e-2147483648"}) {
    Result<Quantity> q = Quantity::Parse(text);
    ASSERT_FALSE(q.ok()) << text;
  }
  EXPECT_NE(Quantity::Parse("1e2000000000").error().message.find("tjrender"), std::string::npos);
  // Kept texts need no arithmetic, so any exponent works; so does the
  // largest inf.Dec exponent kubectl was seen to finish.
  EXPECT_EQ(Canonical("1e999999999"), "1e999999999");
  EXPECT_EQ(Canonical("12345678901234567890e100000"), "123456789012345678900e99999");
}

TEST(QuantityTest, NonFiniteNumbersHaveNoJson) {
  Quantity q;
  Status status = q.UnmarshalJson(doc::Node::Float(std::numeric_limits<double>::quiet_NaN()));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "json: unsupported value: NaN");
  status = q.UnmarshalJson(doc::Node::Float(-std::numeric_limits<double>::infinity()));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "json: unsupported value: -Inf");
}

}  // namespace
}  // namespace tjr::typed

namespace tjr::typed {
namespace {

Quantity Q(std::string_view text) {
  Result<Quantity> q = Quantity::Parse(text);
  EXPECT_TRUE(q.ok()) << text;
  return q.ok() ? *q : Quantity();
}

// resource.Quantity.Cmp compares values across suffixes and formats.
TEST(QuantityCompare, ByValue) {
  EXPECT_EQ(Compare(Q("1000m"), Q("1")), 0);
  EXPECT_EQ(Compare(Q("1024Mi"), Q("1Gi")), 0);
  EXPECT_EQ(Compare(Q("500m"), Q("1")), -1);
  EXPECT_EQ(Compare(Q("2"), Q("1500m")), 1);
  EXPECT_EQ(Compare(Q("1Gi"), Q("1G")), 1);
  EXPECT_EQ(Compare(Q("-1"), Q("0")), -1);
  EXPECT_EQ(Compare(Q("-2"), Q("-1")), -1);
  EXPECT_EQ(Compare(Quantity(), Q("0")), 0);
  EXPECT_EQ(Compare(Quantity(), Q("1m")), -1);
}

}  // namespace
}  // namespace tjr::typed
