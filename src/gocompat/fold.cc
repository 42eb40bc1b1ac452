#include "gocompat/fold.h"

namespace tjr::gocompat {
namespace {

bool IsAsciiLetter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

bool JsonNameEqualFold(std::string_view field_name, std::string_view key) {
  constexpr std::string_view kLongS = "\xC5\xBF";
  constexpr std::string_view kKelvin = "\xE2\x84\xAA";
  for (const char c : field_name) {
    if (static_cast<unsigned char>(c) >= 0x80) return field_name == key;
  }
  std::string_view rest = key;
  for (const char field_char : field_name) {
    const auto f = static_cast<unsigned char>(field_char);
    if (rest.empty()) return false;
    const auto k = static_cast<unsigned char>(rest.front());
    if (k < 0x80) {
      if (f != k && !(IsAsciiLetter(f) && (f & 0xDF) == (k & 0xDF))) return false;
      rest.remove_prefix(1);
      continue;
    }
    const unsigned char lower = f | 0x20;
    if (lower == 's' && rest.starts_with(kLongS)) {
      rest.remove_prefix(kLongS.size());
    } else if (lower == 'k' && rest.starts_with(kKelvin)) {
      rest.remove_prefix(kKelvin.size());
    } else {
      return false;
    }
  }
  return rest.empty();
}

}  // namespace tjr::gocompat
