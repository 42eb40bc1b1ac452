#pragma once

#include <string>
#include <string_view>

namespace tjr::yaml::detail {

/// Whether goyaml v2's encoder may print `text` unquoted: its resolver reads
/// the bare text back as a string (not a bool, null, int, float, timestamp
/// or merge key) and it is not a YAML 1.1 base-60 float ("1:20").
bool PlainKeepsString(std::string_view text);

/// The text kubectl prints for a float64: encoding/json's text, re-read by
/// goyaml (an integer when it fits int64 or uint64, else strconv's 'g').
std::string FloatText(double value);

}  // namespace tjr::yaml::detail
