#include "yaml/scalar_style.h"

#include <cstdint>
#include <cstring>

#include "yaml/resolve.h"
#include "yaml/utf8_bytes.h"

namespace tjr::yaml::detail {
namespace {

// Characters that make a scalar starting with them non-plain, and those
// that do so only when a blank (or the end) follows.
constexpr std::string_view kLeadingIndicators = "#,[]{}&*!|>'\"%@`";
constexpr std::string_view kLeadingIndicatorsBeforeBlank = "?:-";

bool IsOneOf(unsigned char c, std::string_view set) {
  return c != 0 && set.find(static_cast<char>(c)) != std::string_view::npos;
}

}  // namespace

bool IsWord(std::string_view value) {
  if (value.empty()) return false;
  std::size_t i = 0;
  // Eight bytes a step: none below '!', none >= 0x80, none 0x7F.
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  for (; i + 8 <= value.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, value.data() + i, sizeof word);
    const std::uint64_t below = (word - kOnes * 0x21) & ~word & kHighs;
    const std::uint64_t del = ((word ^ (kOnes * 0x7F)) - kOnes) & ~(word ^ (kOnes * 0x7F)) & kHighs;
    if (((word & kHighs) | below | del) != 0) return false;
  }
  for (; i < value.size(); ++i) {
    const char c = value[i];
    if (c < 0x21 || c > 0x7E) return false;  // char is signed: bytes >= 0x80 are negative
  }
  return true;
}

ScalarAnalysis AnalyzeWord(std::string_view value) {
  const auto first = static_cast<unsigned char>(value.front());
  bool block_indicators = false;
  // Letters and digits, which start nearly every word, are no indicators.
  const bool alphanumeric = (first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') ||
                            (first >= '0' && first <= '9');
  if (!alphanumeric) {
    block_indicators = value.starts_with("---") || value.starts_with("...");
    if (IsOneOf(first, kLeadingIndicators)) block_indicators = true;
    if (IsOneOf(first, kLeadingIndicatorsBeforeBlank) && value.size() == 1) block_indicators = true;
  }
  if (value.size() > 1 && value.back() == ':') block_indicators = true;
  ScalarAnalysis result;
  result.block_plain_allowed = !block_indicators;
  result.single_quoted_allowed = true;
  result.block_allowed = true;
  return result;
}

ScalarStyle RequestedWordStyle(std::string_view value) {
  return PlainKeepsString(value) ? ScalarStyle::kPlain : ScalarStyle::kDoubleQuoted;
}

ScalarAnalysis AnalyzeScalar(std::string_view value) {
  ScalarAnalysis result;
  if (value.empty()) {
    result.block_plain_allowed = true;
    result.single_quoted_allowed = true;
    return result;
  }
  if (IsWord(value)) return AnalyzeWord(value);

  // Flow indicators are not tracked: scalars never appear inside flow
  // collections here (only empty ones are written in flow style).
  bool block_indicators = false;
  bool line_breaks = false;
  bool special_characters = false;
  bool leading_space = false;
  bool leading_break = false;
  bool trailing_space = false;
  bool trailing_break = false;
  bool break_space = false;
  bool space_break = false;
  bool previous_space = false;
  bool previous_break = false;
  bool yaml11_break = false;

  if (value.size() >= 3 && (value.starts_with("---") || value.starts_with("..."))) {
    block_indicators = true;
  }

  bool preceded_by_whitespace = true;
  const std::size_t size = value.size();
  for (std::size_t i = 0, w = 0; i < size; i += w) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    w = CharWidth(c);
    const bool followed_by_whitespace = i + w >= size || IsBlankAt(value, i + w);

    if (i == 0) {
      if (IsOneOf(c, kLeadingIndicators) ||
          (IsOneOf(c, kLeadingIndicatorsBeforeBlank) && followed_by_whitespace)) {
        block_indicators = true;
      }
    } else if ((c == ':' && followed_by_whitespace) || (c == '#' && preceded_by_whitespace)) {
      block_indicators = true;
    }

    if (!IsPrintableAt(value, i)) special_characters = true;
    if (c == ' ') {
      if (i == 0) leading_space = true;
      if (i + w == size) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (IsBreakAt(value, i)) {
      line_breaks = true;
      if (c != '\n' && c != '\r') yaml11_break = true;
      if (i == 0) leading_break = true;
      if (i + w == size) trailing_break = true;
      if (previous_space) space_break = true;
      previous_space = false;
      previous_break = true;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = IsBlankOrBreakOrNulAt(value, i);
  }

  result.multiline = line_breaks;
  result.block_plain_allowed = true;
  result.single_quoted_allowed = true;
  result.block_allowed = true;
  if (leading_space || leading_break || trailing_space || trailing_break) {
    result.block_plain_allowed = false;
  }
  if (trailing_space) result.block_allowed = false;
  if (break_space) {
    result.block_plain_allowed = false;
    result.single_quoted_allowed = false;
  }
  if (space_break || special_characters) {
    result.block_plain_allowed = false;
    result.single_quoted_allowed = false;
    result.block_allowed = false;
  }
  if (line_breaks) result.block_plain_allowed = false;
  if (block_indicators) result.block_plain_allowed = false;
  // Not kubectl: goyaml writes NEL, LS and PS raw into a literal block,
  // where YAML 1.2 readers take them for text and goyaml for breaks; the
  // reader refuses them there, so such a string is written quoted (\N \L \P).
  if (yaml11_break) result.block_allowed = false;
  return result;
}

ScalarStyle RequestedStringStyle(std::string_view value) {
  if (value.find('\n') != std::string_view::npos) return ScalarStyle::kLiteral;
  return PlainKeepsString(value) ? ScalarStyle::kPlain : ScalarStyle::kDoubleQuoted;
}

ScalarStyle SelectScalarStyle(ScalarStyle requested, std::string_view value,
                              const ScalarAnalysis& analysis, bool simple_key) {
  ScalarStyle style = requested;
  if (simple_key && analysis.multiline) style = ScalarStyle::kDoubleQuoted;
  if (style == ScalarStyle::kPlain) {
    if (!analysis.block_plain_allowed || (value.empty() && simple_key)) {
      style = ScalarStyle::kSingleQuoted;
    }
  }
  if (style == ScalarStyle::kSingleQuoted && !analysis.single_quoted_allowed) {
    style = ScalarStyle::kDoubleQuoted;
  }
  if (style == ScalarStyle::kLiteral && (!analysis.block_allowed || simple_key)) {
    style = ScalarStyle::kDoubleQuoted;
  }
  return style;
}

}  // namespace tjr::yaml::detail
