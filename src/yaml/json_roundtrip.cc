#include "yaml/json_roundtrip.h"

#include <cstddef>

namespace tjr::yaml::detail {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
constexpr std::string_view kNel = "\xC2\x85";

unsigned char At(std::string_view s, std::size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

bool InRange(unsigned char c, unsigned char low, unsigned char high) {
  return c >= low && c <= high;
}

// Length of the valid UTF-8 sequence at `i` by Go's utf8.DecodeRune rules
// (no overlongs, surrogates or code points past U+10FFFF), or 0.
std::size_t ValidSequenceLength(std::string_view s, std::size_t i) {
  unsigned char c = At(s, i);
  if (c < 0x80) return 1;
  unsigned char c1 = At(s, i + 1);
  if (InRange(c, 0xC2, 0xDF)) return InRange(c1, 0x80, 0xBF) ? 2 : 0;
  unsigned char c2 = At(s, i + 2);
  if (InRange(c, 0xE0, 0xEF)) {
    unsigned char low = c == 0xE0 ? 0xA0 : 0x80;
    unsigned char high = c == 0xED ? 0x9F : 0xBF;
    return InRange(c1, low, high) && InRange(c2, 0x80, 0xBF) ? 3 : 0;
  }
  unsigned char c3 = At(s, i + 3);
  if (InRange(c, 0xF0, 0xF4)) {
    unsigned char low = c == 0xF0 ? 0x90 : 0x80;
    unsigned char high = c == 0xF4 ? 0x8F : 0xBF;
    return InRange(c1, low, high) && InRange(c2, 0x80, 0xBF) && InRange(c3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = ValidSequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string ReplaceInvalidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = ValidSequenceLength(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

namespace {

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
  return !IsValidUtf8(s) || s.find(kNel) != std::string_view::npos;
}

std::string JsonRoundTrip(std::string_view s) {
  std::string text = IsValidUtf8(s) ? std::string(s) : ReplaceInvalidUtf8(s);
  return text.find(kNel) != std::string::npos ? FoldNel(text) : text;
}

}  // namespace tjr::yaml::detail
