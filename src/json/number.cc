#include "json/number.h"

#include <cmath>

namespace tjr::json {

std::optional<std::int64_t> IntegralFloatAsInt64(double value) {
  // 2^63 is exact in a double; anything at or above it does not fit.
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (!std::isfinite(value) || value != std::trunc(value)) return std::nullopt;
  if (value < -kTwoTo63 || value >= kTwoTo63) return std::nullopt;
  return static_cast<std::int64_t>(value);
}

}  // namespace tjr::json
