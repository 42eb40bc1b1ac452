// resource.Quantity arithmetic as the Trainer plugins use it (spec §1.5.2
// "Value() = rounded up", §1.5.4 minResources = Σ requests × count).
// Expected strings are apimachinery's canonical forms (quantity.go
// CanonicalizeBytes): DecimalSI picks the largest exact SI suffix, BinarySI
// the largest exact power of 1024 and falls back to DecimalSI below 1024 or
// when not an integer.
#include "render/quantity_math.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace tjr::render {
namespace {

Amount Q(std::string_view text) {
  Result<Amount> a = Amount::FromJson(doc::Node::String(std::string(text)));
  EXPECT_TRUE(a.ok()) << text;
  return a.ok() ? *a : Amount();
}

TEST(Amount, ValueRoundsUp) {
  EXPECT_EQ(Q("500m").Value(), 1);
  EXPECT_EQ(Q("1.5").Value(), 2);
  EXPECT_EQ(Q("2").Value(), 2);
  EXPECT_EQ(Q("2000m").Value(), 2);
  EXPECT_EQ(Q("1k").Value(), 1000);
  EXPECT_EQ(Q("1Ki").Value(), 1024);
}

TEST(Amount, ValuePastInt64IsGosLow64Bits) {
  // Quantity.Value of an inf.Dec amount ends in big.Int.Int64: the low 64
  // bits of the magnitude, two's complement (render_pipeline fuzz finding:
  // std::stoll threw here and took the process down).
  EXPECT_EQ(Q("555555555555555555555555555555555555555555555551").Value(), 3044589723089516767);
  EXPECT_EQ(Q("9223372036854775808").Value(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(Q("9223372036854775807").Value(), std::numeric_limits<std::int64_t>::max());
  // 10^30 mod 2^64; and a huge exponent costs no more than 64 steps (10^64 is 0 mod 2^64).
  EXPECT_EQ(Q("1e30").Value(), 5076944270305263616);
  EXPECT_EQ(Q("1e999999999").Value(), 0);
}

TEST(Amount, AddAndMultiplyPrintCanonically) {
  Amount cpu = Q("1");
  cpu.Add(Q("500m"));
  EXPECT_EQ(cpu.String(), "1500m");
  cpu.Mul(2);
  EXPECT_EQ(cpu.String(), "3");

  Amount memory = Q("1Gi");
  memory.Add(Q("512Mi"));
  EXPECT_EQ(memory.String(), "1536Mi");
  memory.Mul(4);
  EXPECT_EQ(memory.String(), "6Gi");

  Amount mi = Q("4096Mi");
  mi.Mul(1);
  EXPECT_EQ(mi.String(), "4Gi");

  Amount small = Q("1Ki");
  small.Mul(0);
  EXPECT_EQ(small.String(), "0");

  // BinarySI below 1024 prints as DecimalSI.
  Amount bytes = Q("512Ki");
  bytes.Add(Q("-512Ki"));
  bytes.Add(Q("1000Ki"));
  EXPECT_EQ(bytes.String(), "1000Ki");
}

TEST(Amount, ZeroReceiverTakesAddendFormat) {
  Amount total;
  total.Add(Q("2Gi"));
  EXPECT_EQ(total.format(), typed::QuantityFormat::kBinarySI);
  EXPECT_EQ(total.String(), "2Gi");
  Amount decimal = Q("32");
  decimal.Mul(1);
  EXPECT_EQ(decimal.String(), "32");
  Amount exp = Q("1e3");
  exp.Mul(3);
  EXPECT_EQ(exp.String(), "3e3");
}

TEST(Amount, Compare) {
  EXPECT_EQ(Q("1").Cmp(Q("1000m")), 0);
  EXPECT_EQ(Q("1Gi").Cmp(Q("1G")), 1);
  EXPECT_EQ(Q("100m").Cmp(Q("0.2")), -1);
}

TEST(ResourceList, JsonIsSortedAndCanonical) {
  doc::Node json = doc::Node::Mapping();
  json.Set("memory", doc::Node::String("4096Mi"));
  json.Set("cpu", doc::Node::String("1000m"));
  Result<ResourceList> list = ResourceListFromJson(&json);
  ASSERT_TRUE(list.ok());
  for (auto& [name, amount] : *list) amount.Mul(1);
  doc::Node out = ResourceListToJson(*list);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.fields()[0].key, "cpu");
  EXPECT_EQ(out.fields()[0].value.string_value(), "1");
  EXPECT_EQ(out.fields()[1].value.string_value(), "4Gi");
}

}  // namespace
}  // namespace tjr::render
