#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Go standard library parsers that goyaml v2's scalar resolution relies on,
// reproduced for the inputs it gives them.
namespace tjr::yaml::input {

/// strconv.ParseUint(text, base, 64) without underscore support; `base` 0
/// means Go's prefixes (0x, 0o, 0b, or a leading 0 for octal).
std::optional<std::uint64_t> GoParseUint(std::string_view text, int base);

/// strconv.ParseInt(text, base, 64): an optional sign, then as GoParseUint.
std::optional<std::int64_t> GoParseInt(std::string_view text, int base);

/// strconv.ParseFloat(text, 64) for decimal text, with Go's rule for
/// underscores (only between digits); nullopt on bad syntax or overflow.
std::optional<double> GoParseDecimalFloat(std::string_view text);

/// goyaml's parseTimestamp: time.Parse with one of its four layouts.
bool ParsesAsYamlTimestamp(std::string_view text);

/// base64.StdEncoding.DecodeString (padding required; CR and LF ignored).
std::optional<std::string> DecodeBase64(std::string_view text);

/// strconv.FormatFloat(value, 'g', -1, 32): the shortest float32 text.
std::string FormatFloat32G(double value);

}  // namespace tjr::yaml::input
