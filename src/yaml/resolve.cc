#include "yaml/resolve.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>

#include "doc/number_format.h"
#include "gocompat/strconv.h"
#include "yaml/timestamp.h"

namespace tjr::yaml::detail {
namespace {

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// The spellings goyaml's resolve table maps to bools, null, NaN and the
// infinities (the merge key "<<" is never looked up: '<' has no hint),
// grouped by length: most keys with a hint letter ("name", "node") are then
// compared with a few spellings, and only by their first byte.
bool InResolveMap(std::string_view s) {
  static constexpr std::string_view kLength1[] = {"y", "Y", "n", "N", "~"};
  static constexpr std::string_view kLength2[] = {"on", "On", "ON", "no", "No", "NO"};
  static constexpr std::string_view kLength3[] = {"yes", "Yes", "YES", "off", "Off", "OFF"};
  static constexpr std::string_view kLength4[] = {"true", "True", "TRUE", "null", "Null", "NULL",
                                                  ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF"};
  static constexpr std::string_view kLength5[] = {"false", "False", "FALSE", "+.inf", "+.Inf",
                                                  "+.INF", "-.inf", "-.Inf", "-.INF"};
  auto any_of = [s](const auto& words) {
    for (std::string_view word : words) {
      if (word[0] == s[0] && word == s) return true;
    }
    return false;
  };
  switch (s.size()) {
    case 1: return any_of(kLength1);
    case 2: return any_of(kLength2);
    case 3: return any_of(kLength3);
    case 4: return any_of(kLength4);
    case 5: return any_of(kLength5);
    default: return false;
  }
}

// goyaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool MatchesYamlStyleFloat(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < s.size() && IsAsciiDigit(s[i])) ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// goyaml's isBase60Float: YAML 1.1 sexagesimal numbers ("1:20"), which it
// no longer reads as numbers but still quotes for other parsers.
bool IsBase60Float(std::string_view s) {
  if (s.empty()) return false;
  char c = s[0];
  if (!(c == '+' || c == '-' || IsAsciiDigit(c)) || s.find(':') == std::string_view::npos) {
    return false;
  }
  // ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
  std::size_t i = 0;
  if (s[i] == '+' || s[i] == '-') ++i;
  if (i >= s.size() || !IsAsciiDigit(s[i])) return false;
  ++i;
  while (i < s.size() && (IsAsciiDigit(s[i]) || s[i] == '_')) ++i;
  int groups = 0;
  while (i < s.size() && s[i] == ':') {
    ++i;
    // [0-5]?[0-9]: one digit, or two with the first in 0-5.
    if (i + 1 < s.size() && s[i] >= '0' && s[i] <= '5' && IsAsciiDigit(s[i + 1])) {
      i += 2;
    } else if (i < s.size() && IsAsciiDigit(s[i])) {
      i += 1;
    } else {
      return false;
    }
    ++groups;
  }
  if (groups == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (IsAsciiDigit(s[i]) || s[i] == '_')) ++i;
  }
  return i == s.size();
}

}  // namespace

bool PlainKeepsString(std::string_view s) {
  if (s.empty()) return false;  // null
  char hint = s[0];
  bool sign_or_digit = hint == '+' || hint == '-' || IsAsciiDigit(hint);
  bool word = false;
  switch (hint) {
    case 'y':
    case 'Y':
    case 'n':
    case 'N':
    case 't':
    case 'T':
    case 'f':
    case 'F':
    case 'o':
    case 'O':
    case '~':
      word = true;
      break;
    default:
      break;
  }
  // IsBase60Float needs a sign or digit first, so it cannot hold here.
  if (!sign_or_digit && !word && hint != '.') return true;
  if (s.size() <= 5 && InResolveMap(s)) return false;  // the longest spelling is "-.inf"
  if (word) return true;
  if (hint == '.') return !gocompat::ParseDecimalFloatUnderscored(s).has_value();

  if (IsYamlTimestamp(s)) return false;
  // goyaml parses the text with every underscore removed.
  std::string without_underscores;
  std::string_view p = s;
  if (s.find('_') != std::string_view::npos) {
    for (char c : s) {
      if (c != '_') without_underscores += c;
    }
    p = without_underscores;
  }
  if (gocompat::ParseInt(p, 0) || gocompat::ParseUint(p, 0)) return false;
  if (MatchesYamlStyleFloat(p) && gocompat::ParseDecimalFloatUnderscored(p)) return false;
  if (p.size() >= 2 && p[0] == '0' && p[1] == 'b') {
    std::string_view rest = p.substr(2);
    if (gocompat::ParseInt(rest, 2) || gocompat::ParseUint(rest, 2)) return false;
  } else if (p.size() >= 3 && p[0] == '-' && p[1] == '0' && p[2] == 'b') {
    std::string negated = "-";
    negated.append(p.substr(3));
    if (gocompat::ParseInt(negated, 2)) return false;
  }
  return !IsBase60Float(s);
}

std::string FloatText(double value) {
  if (std::isnan(value) || std::isinf(value)) return doc::FormatFloatShortestG(value);
  std::string json = doc::FormatFloatJson(value);
  bool integer_text = true;
  for (char c : json) {
    if (!IsAsciiDigit(c) && c != '-') {
      integer_text = false;
      break;
    }
  }
  if (integer_text) {
    if (std::optional<std::int64_t> as_int = gocompat::ParseInt(json, 10)) {
      char buffer[24];
      auto end = std::to_chars(buffer, buffer + sizeof buffer, *as_int).ptr;
      return std::string(buffer, end);
    }
    if (json[0] != '-' && gocompat::ParseUint(json, 10)) return json;
  }
  return doc::FormatFloatShortestG(value);
}

}  // namespace tjr::yaml::detail
