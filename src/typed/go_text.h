#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::typed {

/// utf8.DecodeRuneInString: the rune at the start of `text` and its width;
/// an invalid or truncated sequence is U+FFFD of width 1.
struct DecodedRune {
  char32_t rune = 0;
  std::size_t width = 0;
};
DecodedRune DecodeRune(std::string_view text);

/// What encoding/json writes for invalid UTF-8: each bad byte becomes U+FFFD.
std::string CoerceUtf8(std::string_view text);

/// Whether json.Marshal (HTML-safe) writes `text` with any escape sequence,
/// so that a custom UnmarshalJSON sees a backslash in the raw bytes.
bool JsonStringHasEscapes(std::string_view text);

/// strings.TrimSpace (Unicode White_Space at both ends).
std::string_view TrimUnicodeSpace(std::string_view text);

/// The JSON text encoding/json writes for a number node: an int's decimal
/// digits, a float's Go formatting. NaN and infinities have none: that is
/// json.Marshal's "json: unsupported value: NaN" error.
Result<std::string> JsonNumberText(const doc::Node& number);

/// The key under which encoding/json matches field names without regard to
/// case (its foldName: ASCII upper-cased, other runes to the smallest rune
/// of their case-fold orbit, which maps U+212A KELVIN SIGN to 'K' and
/// U+017F LONG S to 'S').
std::string FoldName(std::string_view name);

/// reflect.Type.String() for a schema type name: package paths are cut to
/// their last element ("k8s.io/api/core/v1.Container" → "v1.Container",
/// "[]k8s.io/api/core/v1.EnvVar" → "[]v1.EnvVar").
std::string GoTypeString(std::string_view qualified_name);

/// reflect.Type.Name() of a named type ("k8s.io/api/core/v1.Container" →
/// "Container").
std::string_view GoTypeName(std::string_view qualified_name);

}  // namespace tjr::typed
