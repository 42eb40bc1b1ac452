#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Block scalars that libfyaml reads differently from goyaml (kubectl), found
// by the fuzzers (yaml_determinism, yaml_differential) and refused with a
// message rather than read differently. A pure function of the text, so the
// reader's libfyaml adapter only asks it.
namespace tjr::yaml::input {

/// Where in the text a block scalar is refused, and why.
struct BlockScalarRefusal {
  std::size_t at = 0;  ///< byte offset of the line the message is about
  std::string message;
};

/// The block scalar whose lines span [begin, end) of `text` (begin: the
/// line after its header), inside a block collection at column `parent`
/// (0-based; -1: the scalar is the document itself); `folded` for '>'.
/// nullopt when goyaml and libfyaml read it alike.
std::optional<BlockScalarRefusal> CheckBlockScalar(std::string_view text, std::size_t begin, std::size_t end,
                                                   std::int64_t parent, bool folded);

/// The indentation indicator (1-9) of the block scalar whose lines start at
/// `lines`, 0 without one, -1 when the header is not understood; `alone`:
/// the header stands on a line of its own.
int IndentationIndicator(std::string_view text, std::size_t lines, bool* alone);

}  // namespace tjr::yaml::input
