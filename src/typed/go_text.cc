#include "typed/go_text.h"

#include <cmath>

#include "doc/number_format.h"
#include "gocompat/utf8.h"

namespace tjr::typed {
namespace {

bool IsUnicodeSpace(char32_t rune) {
  switch (rune) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
    case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return rune >= 0x2000 && rune <= 0x200A;
  }
}

}  // namespace

std::string_view TrimUnicodeSpace(std::string_view text) {
  while (!text.empty()) {
    const gocompat::Rune rune = gocompat::DecodeRune(text);
    if (!IsUnicodeSpace(rune.value) || rune.size == 0) break;
    text.remove_prefix(rune.size);
  }
  while (!text.empty()) {
    const gocompat::Rune rune = gocompat::DecodeLastRune(text);
    if (!IsUnicodeSpace(rune.value)) break;
    text.remove_suffix(rune.size);
  }
  return text;
}

Result<std::string> JsonNumberText(const doc::Node& number) {
  if (number.is_int()) return std::to_string(number.int_value());
  double value = number.float_value();
  if (std::isnan(value)) return MakeError(number.location(), "", "json: unsupported value: NaN");
  if (std::isinf(value)) {
    return MakeError(number.location(), "",
                     value > 0 ? "json: unsupported value: +Inf" : "json: unsupported value: -Inf");
  }
  return doc::FormatFloatJson(value);
}

}  // namespace tjr::typed
