#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tjr::json {

/// strconv.ParseFloat(text, 64) for decimal literals (an optional sign,
/// digits with an optional '.', an optional exponent). Like Go, a value too
/// small for a double rounds to a signed zero without error; one too large
/// is nullopt, as is text that is not such a literal.
std::optional<double> ParseDecimalFloat(std::string_view text);

/// strconv.ParseInt(text, 10, 64): optional sign, decimal digits only.
std::optional<std::int64_t> ParseDecimalInt64(std::string_view text);

/// Whether `value` survives encoding/json's float text and util/json's
/// reading of it as an int64: integral, finite, and inside int64's range.
std::optional<std::int64_t> IntegralFloatAsInt64(double value);

}  // namespace tjr::json
