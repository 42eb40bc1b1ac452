#pragma once

#include <string_view>

// The "date" and "date-time" string formats as kube-openapi checks them for
// the API server (pkg/validation/strfmt), without regular expressions: one
// pass over the text and no recursion, whatever its length.
namespace tjr::validate {

/// Go's time.Parse("2006-01-02", text): a four-digit year, month 01-12 and
/// a day that exists in that month.
bool IsDate(std::string_view text);

/// kube-openapi strfmt.IsDateTime (pkg/validation/strfmt/time.go:30-46 at
/// kube-openapi d427ff9): the text, ASCII-lowercased, split at every "t";
/// a date before the first, and after it (up to the second "t")
/// `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
/// (time.go:56) with hh <= 23 and mm, ss <= 59. The `.` is one byte other
/// than '\n' and '\r', as ECMAScript's `.` over bytes matches (the language
/// the former std::regex check accepted).
bool IsDateTime(std::string_view text);

}  // namespace tjr::validate
