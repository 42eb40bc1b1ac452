#include "typed/big_uint.h"

#include <gtest/gtest.h>

namespace tjr::typed {
namespace {

TEST(BigUintTest, DigitsRoundTrip) {
  for (std::string_view digits : {"0", "7", "999999999", "1000000000", "123456789012345678901234567890",
                                  "18446744073709551616"}) {
    EXPECT_EQ(BigUint::FromDigits(digits).ToString(), digits);
  }
  EXPECT_EQ(BigUint::FromDigits("000120").ToString(), "120");
  EXPECT_TRUE(BigUint::FromDigits("").is_zero());
  EXPECT_EQ(BigUint::FromDigits("1000000000").DigitCount(), 10u);
  EXPECT_EQ(BigUint().DigitCount(), 1u);
}

TEST(BigUintTest, ToUint64Bounds) {
  std::uint64_t value = 0;
  ASSERT_TRUE(BigUint::FromDigits("18446744073709551615").ToUint64(&value));
  EXPECT_EQ(value, UINT64_MAX);
  EXPECT_FALSE(BigUint::FromDigits("18446744073709551616").ToUint64(&value));
}

TEST(BigUintTest, PowersOfTen) {
  BigUint n(15);
  n.MultiplyPow10(20);
  EXPECT_EQ(n.ToString(), "1500000000000000000000");
  EXPECT_EQ(n.StripFactorsOf10(), 20u);
  EXPECT_EQ(n.ToString(), "15");

  BigUint m = BigUint::FromDigits("123456789012345678901");
  EXPECT_TRUE(m.DividePow10(10));  // discards 5678901 (nonzero)
  EXPECT_EQ(m.ToString(), "12345678901");
  BigUint exact = BigUint::FromDigits("1200000000000000000");
  EXPECT_FALSE(exact.DividePow10(17));
  EXPECT_EQ(exact.ToString(), "12");
  BigUint small(5);
  EXPECT_TRUE(small.DividePow10(30));
  EXPECT_TRUE(small.is_zero());
}

TEST(BigUintTest, SmallArithmetic) {
  BigUint n(999999999);
  n.AddSmall(1);
  EXPECT_EQ(n.ToString(), "1000000000");
  n.MultiplyPow2(60);
  EXPECT_EQ(n.ToString(), "1152921504606846976000000000");
  EXPECT_EQ(n.ModuloSmall(1024), 0u);
  EXPECT_EQ(n.DivideSmall(1024), 0u);
  EXPECT_EQ(n.ToString(), "1125899906842624000000000");
  EXPECT_LT(Compare(BigUint(9), BigUint(10)), 0);
  EXPECT_GT(Compare(BigUint::FromDigits("10000000000"), BigUint(UINT32_MAX)), 0);
  EXPECT_EQ(Compare(BigUint(42), BigUint::FromDigits("42")), 0);
}

}  // namespace
}  // namespace tjr::typed
