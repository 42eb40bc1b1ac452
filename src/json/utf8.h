#pragma once

#include <string>
#include <string_view>

namespace tjr::json {

/// One decoded code point and the bytes it took.
struct Rune {
  char32_t value;
  int size;
};

inline constexpr char32_t kReplacementChar = 0xFFFD;

/// Decodes the first code point of non-empty `text` as Go's utf8.DecodeRune
/// does: an invalid or truncated sequence yields U+FFFD with size 1.
Rune DecodeRune(std::string_view text);

/// Whether `text` is entirely valid UTF-8 (Go's utf8.ValidString).
bool IsValidUtf8(std::string_view text);

/// Replaces every byte that starts no valid sequence with U+FFFD, as Go's
/// encoding/json does to strings it decodes or encodes.
std::string CoerceToValidUtf8(std::string_view text);

/// Appends `code_point` encoded as UTF-8.
void AppendUtf8(char32_t code_point, std::string* out);

}  // namespace tjr::json
