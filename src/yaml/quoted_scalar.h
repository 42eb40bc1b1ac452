#pragma once

#include <optional>
#include <string>
#include <string_view>

// The value of a quoted YAML scalar, computed from its source text the way
// goyaml v2's scanner does it (scannerc.go yaml_parser_scan_flow_scalar):
// '' in single quotes, the escapes of double quotes, and the folding of
// line breaks and the blanks around them. libfyaml 0.7.12 gets some of
// these wrong ('a''''b' reads as a''' , an escaped space before a line break
// reads bytes past the value) and leaks the text it formats, so tjrender
// reads the value itself and leaves libfyaml only the structure.
namespace tjr::yaml::input {

/// `inside` is the text between the opening and the closing quote; `quote`
/// is '\'' or '"'. For text goyaml refuses (an unknown escape, a bad hex
/// escape or code point, a quote inside that would end the scalar early)
/// returns nothing and sets `error` to goyaml's message.
std::optional<std::string> DecodeQuotedScalar(std::string_view inside, char quote, std::string* error);

}  // namespace tjr::yaml::input
