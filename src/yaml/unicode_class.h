#pragma once

namespace tjr::yaml::detail {

/// Go's unicode.IsLetter (categories Lu, Ll, Lt, Lm, Lo) for Unicode 15.0,
/// the tables of the Go release kubectl v1.32 is built with.
bool IsLetter(char32_t rune);

/// Go's unicode.IsDigit (category Nd), Unicode 15.0.
bool IsDigit(char32_t rune);

}  // namespace tjr::yaml::detail
