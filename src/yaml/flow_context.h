#pragma once

// Flow collections ([...], {...}) that goyaml v2, which kubectl uses, and
// libfyaml read differently. goyaml's scanner
// (scannerc.go, yaml_parser_fetch_next_token and
// yaml_parser_scan_plain_scalar) follows YAML 1.1 there:
// - a '?' or ':' that starts a token is always an indicator, never the
//   start of a plain scalar (`[:b]` is refused, `[?b]` is the mapping b: null);
// - a plain scalar ends at any '?' (`[http://x?y=1]` is refused: "did not
//   find expected ',' or ']'");
// - a ':' ends it only before a blank, so `[a:]` is the string "a:".
// - a tag runs on over ',', '[' and ']' (URI characters to goyaml), so
//   `[!a, b]` is [b] tagged `!a,`, and must end at a blank (`{1: !a,}` is
//   refused).
// libfyaml follows YAML 1.2 and reads each of these as text, as a pair or
// as an empty node. They are refused rather than read differently.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tjr::yaml::input {

struct FlowPlainRefusal {
  std::size_t at = 0;  ///< byte offset of the character goyaml reads differently
  std::string message;
};

/// Checks the plain scalar libfyaml read at [begin, end) of `text`, inside
/// a flow collection that `closer` (']' or '}') ends.
std::optional<FlowPlainRefusal> CheckFlowPlainScalar(std::string_view text, std::size_t begin,
                                                     std::size_t end, char closer);

/// Checks the character after a tag that libfyaml ended at `tag_end` of
/// `text`. goyaml requires a blank or a line break there (scannerc.go,
/// yaml_parser_scan_tag), after reading on over the URI characters, ',',
/// '[' and ']' among them, which libfyaml stops at in a flow collection.
std::optional<FlowPlainRefusal> CheckTagEnd(std::string_view text, std::size_t tag_end);

}  // namespace tjr::yaml::input
