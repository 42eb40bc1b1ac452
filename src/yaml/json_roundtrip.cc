#include "yaml/json_roundtrip.h"

#include <cstddef>

#include "gocompat/utf8.h"

namespace tjr::yaml::detail {
namespace {

constexpr std::string_view kNel = "\xC2\x85";

// goyaml's double-quoted scalar scanning: within a run of spaces and NELs
// that holds a NEL, the spaces go; the first NEL folds to one space, or each
// further NEL gives one newline.
std::string FoldNel(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] != ' ' && s.substr(i, 2) != kNel) {
      out += s[i++];
      continue;
    }
    std::size_t start = i;
    std::size_t breaks = 0;
    while (i < s.size()) {
      if (s[i] == ' ') {
        ++i;
      } else if (s.substr(i, 2) == kNel) {
        ++breaks;
        i += 2;
      } else {
        break;
      }
    }
    if (breaks == 0) {
      out.append(s.substr(start, i - start));
    } else if (breaks == 1) {
      out += ' ';
    } else {
      out.append(breaks - 1, '\n');
    }
  }
  return out;
}

}  // namespace

bool ChangedByJsonRoundTrip(std::string_view s) {
  unsigned char high_bits = 0;
  for (char c : s) high_bits |= static_cast<unsigned char>(c);
  if (high_bits < 0x80) return false;
  return !gocompat::IsValidUtf8(s) || s.find(kNel) != std::string_view::npos;
}

std::string JsonRoundTrip(std::string_view s) {
  std::string text = gocompat::IsValidUtf8(s) ? std::string(s) : gocompat::CoerceToValidUtf8(s);
  return text.find(kNel) != std::string::npos ? FoldNel(text) : text;
}

}  // namespace tjr::yaml::detail
