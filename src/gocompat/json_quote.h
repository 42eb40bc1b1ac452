#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// encoding/json's string encoder (Marshal, HTML escaping on). The three
// functions share one table of what gets escaped, so they cannot disagree.
namespace tjr::gocompat {

/// Appends `value` as a JSON string literal, quotes included: HTML-safe
/// escapes for < > &, short escapes for \" \\ \b \f \n \r \t, \u00XX for
/// other control bytes, U+2028 and U+2029 escaped, each byte of invalid
/// UTF-8 as \ufffd. DEL and everything else is copied.
void AppendJsonString(std::string_view value, std::string* out);

/// Whether AppendJsonString writes `value` with at least one escape, so
/// that a custom UnmarshalJSON sees a backslash in the raw bytes.
bool JsonStringHasEscapes(std::string_view value);

/// How many characters (code points) AppendJsonString writes between the
/// quotes: what goyaml's scanner counts when it reads that JSON back.
std::size_t JsonStringChars(std::string_view value);

}  // namespace tjr::gocompat
