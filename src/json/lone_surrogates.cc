#include "json/lone_surrogates.h"

#include <cstring>

namespace tjr::json {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// getu4: the code unit of the `\uXXXX` escape at `at`, or -1.
long EscapeAt(std::string_view json, std::size_t at) {
  if (at + 6 > json.size() || json[at] != '\\' || json[at + 1] != 'u') return -1;
  long unit = 0;
  for (std::size_t i = at + 2; i < at + 6; ++i) {
    const int digit = HexValue(json[i]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

bool IsHigh(long unit) { return unit >= 0xD800 && unit < 0xDC00; }
bool IsLow(long unit) { return unit >= 0xDC00 && unit < 0xE000; }

}  // namespace

std::optional<std::string> ReplaceLoneSurrogateEscapes(std::string_view json) {
  std::optional<std::string> out;
  std::size_t i = 0;
  while (i < json.size()) {
    const void* found = std::memchr(json.data() + i, '\\', json.size() - i);
    if (found == nullptr) break;
    i = static_cast<std::size_t>(static_cast<const char*>(found) - json.data());
    // Every backslash of valid JSON starts a two-character escape (or a
    // six-character `\u`), so the next one found is never half of this one.
    const long unit = EscapeAt(json, i);
    if (!IsHigh(unit) && !IsLow(unit)) {
      i += 2;
      continue;
    }
    if (IsHigh(unit) && IsLow(EscapeAt(json, i + 6))) {
      i += 12;  // a valid pair
      continue;
    }
    if (!out) out.emplace(json);
    out->replace(i + 2, 4, "FFFD");
    i += 6;  // the next escape is looked at on its own, as Go does
  }
  return out;
}

}  // namespace tjr::json
