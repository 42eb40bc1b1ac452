#pragma once

#include <string>

namespace tjr::doc {

/// strconv.FormatFloat(value, 'g', -1, 64), with goyaml's ".inf", "-.inf"
/// and ".nan" spellings.
std::string FormatFloatShortestG(double value);

/// encoding/json's float64 text: 'f' format for 1e-6 <= |v| < 1e21, else 'e'
/// with a negative exponent's leading zero trimmed ("1e-7", but "1e+21").
/// NaN and infinities have no JSON form; callers must reject them first.
std::string FormatFloatJson(double value);

}  // namespace tjr::doc
