#include "doc/number_format.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace tjr::doc {
namespace {

struct FloatCase {
  double value;
  const char* shortest_g;  // strconv.FormatFloat(v, 'g', -1, 64)
  const char* json;        // encoding/json
};

// Expected texts follow Go's strconv and encoding/json rules; the YAML
// column is what kubectl prints for the same value (see writer tests).
const FloatCase kCases[] = {
    {0.5, "0.5", "0.5"},
    {1.5, "1.5", "1.5"},
    {-2.25, "-2.25", "-2.25"},
    {0.0, "0", "0"},
    {-0.0, "-0", "-0"},
    {1e-6, "1e-06", "0.000001"},
    {1e-7, "1e-07", "1e-7"},
    {1.5e-7, "1.5e-07", "1.5e-7"},
    {0.0001, "0.0001", "0.0001"},
    {0.00001, "1e-05", "0.00001"},
    {123456.0, "123456", "123456"},
    {1234567.0, "1.234567e+06", "1234567"},
    {1e6, "1e+06", "1000000"},
    {1e20, "1e+20", "100000000000000000000"},
    {1e21, "1e+21", "1e+21"},
    {1.2345678901234567e19, "1.2345678901234567e+19", "12345678901234567000"},
    {3.141592653589793, "3.141592653589793", "3.141592653589793"},
    {1e100, "1e+100", "1e+100"},
    {5e-324, "5e-324", "5e-324"},
    {0.1 + 0.2, "0.30000000000000004", "0.30000000000000004"},
};

TEST(NumberFormatTest, ShortestG) {
  for (const FloatCase& c : kCases) {
    EXPECT_EQ(FormatFloatShortestG(c.value), c.shortest_g) << c.json;
  }
}

TEST(NumberFormatTest, Json) {
  for (const FloatCase& c : kCases) {
    EXPECT_EQ(FormatFloatJson(c.value), c.json) << c.shortest_g;
  }
}

TEST(NumberFormatTest, NonFiniteUseGoyamlSpellings) {
  EXPECT_EQ(FormatFloatShortestG(std::numeric_limits<double>::infinity()), ".inf");
  EXPECT_EQ(FormatFloatShortestG(-std::numeric_limits<double>::infinity()), "-.inf");
  EXPECT_EQ(FormatFloatShortestG(std::nan("")), ".nan");
}

}  // namespace
}  // namespace tjr::doc
