#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

// Go text helpers only typed decoding needs; the ones other modules share
// (UTF-8, JSON string escaping, name folding, type names) are in gocompat.
namespace tjr::typed {

/// strings.TrimSpace (Unicode White_Space at both ends).
std::string_view TrimUnicodeSpace(std::string_view text);

/// The JSON text encoding/json writes for a number node: an int's decimal
/// digits, a float's Go formatting. NaN and infinities have none: that is
/// json.Marshal's "json: unsupported value: NaN" error.
Result<std::string> JsonNumberText(const doc::Node& number);

}  // namespace tjr::typed
