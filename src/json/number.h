#pragma once

#include <cstdint>
#include <optional>

namespace tjr::json {

/// Whether `value` survives encoding/json's float text and util/json's
/// reading of it as an int64: integral, finite, and inside int64's range.
/// (Go's number parsers themselves are in gocompat/strconv.h.)
std::optional<std::int64_t> IntegralFloatAsInt64(double value);

}  // namespace tjr::json
