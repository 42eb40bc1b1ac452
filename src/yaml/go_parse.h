#pragma once

#include <optional>
#include <string>
#include <string_view>

// Go standard library functions that only goyaml v2's scalar resolution
// uses, reproduced for the inputs it gives them. The number parsers it
// shares with other modules are in gocompat/strconv.h, and its timestamp
// check is timestamp.h's.
namespace tjr::yaml::input {

/// base64.StdEncoding.DecodeString (padding required; CR and LF ignored).
std::optional<std::string> DecodeBase64(std::string_view text);

/// strconv.FormatFloat(value, 'g', -1, 32): the shortest float32 text.
std::string FormatFloat32G(double value);

}  // namespace tjr::yaml::input
