#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// Go's unicode/utf8 rules, which encoding/json, goyaml and the time package
// apply to the strings this tool passes through them.
namespace tjr::gocompat {

/// One decoded code point and the bytes it took.
struct Rune {
  char32_t value = 0;
  std::size_t size = 0;
};

inline constexpr char32_t kReplacementChar = 0xFFFD;

/// utf8.DecodeRuneInString: the first code point of `text`. An invalid or
/// truncated sequence (overlong forms, surrogates, values above U+10FFFF)
/// yields U+FFFD of size 1; empty text yields U+FFFD of size 0.
Rune DecodeRune(std::string_view text);

/// utf8.DecodeLastRuneInString: the code point that ends `text`, with the
/// same conventions as DecodeRune.
Rune DecodeLastRune(std::string_view text);

/// Whether `rune` is DecodeRune's report of a byte that starts no valid
/// sequence (a literal U+FFFD has size 3).
inline bool IsInvalid(Rune rune) { return rune.value == kReplacementChar && rune.size == 1; }

/// utf8.ValidString.
bool IsValidUtf8(std::string_view text);

/// Replaces every byte that starts no valid sequence with U+FFFD, as
/// encoding/json does to the strings it decodes and encodes.
std::string CoerceToValidUtf8(std::string_view text);

/// Appends `code_point` encoded as UTF-8.
void AppendUtf8(char32_t code_point, std::string* out);

/// unicode.IsSpace: Latin-1 '\t', '\n', '\v', '\f', '\r', ' ', U+0085 and
/// U+00A0, and above them the other White_Space code points.
bool IsUnicodeSpace(char32_t code_point);

/// bytes.TrimLeftFunc(text, unicode.IsSpace): `text` from its first code
/// point that is not a space (an invalid byte is not one).
std::string_view TrimLeftUnicodeSpace(std::string_view text);

}  // namespace tjr::gocompat
