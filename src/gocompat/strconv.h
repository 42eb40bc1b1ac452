#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Go's strconv number parsers, for the inputs this tool gives them. Each
// returns nullopt where Go returns an error (bad syntax or out of range),
// except as noted for float underflow.
namespace tjr::gocompat {

/// strconv.ParseUint(text, base, 64) without underscore support: no sign;
/// `base` 0 means Go's prefixes (0x, 0o, 0b, or a leading 0 for octal).
std::optional<std::uint64_t> ParseUint(std::string_view text, int base);

/// strconv.ParseInt(text, base, 64): an optional sign, then as ParseUint.
std::optional<std::int64_t> ParseInt(std::string_view text, int base);

/// strconv.ParseFloat(text, 64) for decimal literals (an optional sign,
/// digits with an optional '.', an optional exponent); "inf", "nan" and hex
/// forms are refused. Like Go, a value too small for a double rounds to a
/// signed zero without error; one too large is nullopt.
std::optional<double> ParseDecimalFloat(std::string_view text);

/// ParseDecimalFloat that also takes Go's underscores (only between
/// digits, never last), as strconv.ParseFloat does.
std::optional<double> ParseDecimalFloatUnderscored(std::string_view text);

/// strconv.Quote: `value` in double quotes with Go's escapes (\n, \t,
/// \", \\, \xNN for a byte of invalid UTF-8 or a control character,
/// \uNNNN / \UNNNNNNNN for other unprintable runes); what %q prints.
std::string Quote(std::string_view value);

}  // namespace tjr::gocompat
