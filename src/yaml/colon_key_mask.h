#pragma once

// A workaround for one libfyaml 0.7.12 refusal: a line that starts with ':'
// right after a multi-line plain scalar. libfyaml's scanner looks past such
// a scalar for a ':' to refuse a multi-line implicit key, and takes the
// first byte of the next line for it even when a letter follows (fy-parse.c,
// fy_fetch_plain_scalar: "invalid multiline plain key"). goyaml (libyaml's
// scanner) reads `:zone` there as a plain scalar, a key like any other, and
// writes such keys unquoted after a folded value; so tjrender's own output
// did not read back (fuzz/corpus/yaml_writer_roundtrip/colon-key-after-
// folded-plain-*). libfyaml reads a copy in which those ':' are letters; the
// reader gives each plain scalar that starts at a masked byte its ':' back.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tjr::yaml::input {

/// libfyaml's message for the refusal above.
inline constexpr std::string_view kMultilinePlainKey = "invalid multiline plain key";

/// What the reader adds to that message when the workaround did not apply
/// and the refusal is about such a line (RefusalIsAColonLine).
inline constexpr const char* kMultilinePlainKeyHint =
    " (libfyaml 0.7.12, the YAML parser, also refuses a line that starts with ':' after a value "
    "continued on a second line, which kubectl reads as a key: quote that key)";

/// The byte offset in `text` of a libfyaml error mark: `line` and `column`
/// both from 1, the column counted in characters. Clamped to the text.
std::size_t OffsetOfMark(std::string_view text, std::size_t line, std::size_t column);

/// Whether the "invalid multiline plain key" refusal of the plain scalar
/// that starts at `scalar_begin` is about a line that starts with ':': the
/// first ':' after the scalar that libfyaml takes for a key's end (one
/// before a blank, a line break or the end, or one that starts a line) is
/// the first byte of its line after the indentation. Else the refusal is
/// of a multi-line key (an unindented `${VAR}` line before `  c: d`, say)
/// and the hint about ':' lines does not describe it.
bool RefusalIsAColonLine(std::string_view text, std::size_t scalar_begin);

/// The byte that stands for a masked ':'. A letter starts a plain scalar in
/// block context exactly where ':' followed by a non-blank does (libyaml's
/// scanner), and continues it the same way.
inline constexpr char kColonMask = 'x';

/// A copy of a text with some line-leading ':' masked.
struct ColonMaskedText {
  std::string text;                ///< the same length as the original
  std::vector<std::size_t> sites;  ///< offsets of the masked bytes, ascending
};

/// The offsets of every ':' that is the first byte after a line's leading
/// spaces and is followed by a byte other than a blank or a line break:
/// where goyaml, in block context, starts a plain scalar. Ascending.
std::vector<std::size_t> FindLineLeadingColons(std::string_view text);

/// `text` with the bytes at `sites` (each a ':') replaced by kColonMask.
ColonMaskedText MaskColons(std::string_view text, const std::vector<std::size_t>& sites);

/// One read of a masked text by libfyaml: whether it read it, and which of
/// the masked sites turned out to start a plain scalar in block context
/// (`*starts`, ascending). A site anywhere else (inside a block or quoted
/// scalar, a plain scalar's continuation line, a flow collection) does not
/// read as goyaml reads it when masked.
using MaskedRead = std::function<bool(const ColonMaskedText& masked, std::vector<std::size_t>* starts)>;

/// Reads `text` with its line-leading colons masked: first all of them; if
/// some turned out not to start a plain scalar, again with only those that
/// did. True when a read succeeded and every site it masked started a plain
/// scalar, so the reader's result (with the ':' given back) is goyaml's.
/// False when there is nothing to mask or no read qualifies.
bool ReadWithColonsMasked(std::string_view text, const MaskedRead& read);

}  // namespace tjr::yaml::input
