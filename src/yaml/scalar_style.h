#pragma once

#include <cstdint>
#include <string_view>

namespace tjr::yaml::detail {

enum class ScalarStyle : std::uint8_t { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral };

/// What goyaml's emitter learns about a scalar before choosing its style
/// (yaml_emitter_analyze_scalar, with unicode output enabled).
struct ScalarAnalysis {
  bool multiline = false;  ///< has a line break (LF, CR, NEL, LS or PS)
  bool block_plain_allowed = false;
  bool single_quoted_allowed = false;
  bool block_allowed = false;
};

ScalarAnalysis AnalyzeScalar(std::string_view value);

/// True when `value` is non-empty printable ASCII without spaces, the case
/// of nearly every key and value of a manifest ("a word").
bool IsWord(std::string_view value);

/// AnalyzeScalar of a word: no breaks, no special characters, indicators
/// only at the ends.
ScalarAnalysis AnalyzeWord(std::string_view value);

/// RequestedStringStyle of a word (it has no newline).
ScalarStyle RequestedWordStyle(std::string_view value);

/// The style goyaml's encoder asks for a string (encode.go stringv): literal
/// when it has a newline, plain when the bare text reads back as the same
/// string, double-quoted otherwise.
ScalarStyle RequestedStringStyle(std::string_view value);

/// The style the emitter settles on (yaml_emitter_select_scalar_style) for a
/// scalar in block context; `simple_key` is a mapping key written as `key:`.
ScalarStyle SelectScalarStyle(ScalarStyle requested, std::string_view value,
                              const ScalarAnalysis& analysis, bool simple_key);

}  // namespace tjr::yaml::detail
