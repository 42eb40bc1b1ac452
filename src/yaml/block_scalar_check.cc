#include "yaml/block_scalar_check.h"

#include <algorithm>

namespace tjr::yaml::input {

// A block scalar without an indentation indicator takes its indentation
// from its first non-empty line, and goyaml (scannerc.go,
// yaml_parser_scan_block_scalar_breaks) raises it to at least one more
// than the enclosing block collection's column: a less indented line
// ends the scalar there, empty, and is read as what follows it (the next
// key, or an error). libfyaml takes such a line, as deep as the parent's
// keys, into the scalar (`b: |` then `  c: 1` under a mapping at column
// 2 reads as b: "c: 1\n" where kubectl reads b: "" and c: 1), and its
// bytes for such scalars differed from one read to the next (issue 14).
// Refused rather than read differently.
// The token's marks span the scalar's lines (from the line after its
// header). With an indentation indicator the lines are at least as deep
// as the indicator says, which both count from the same parent, so the
// check below holds for them as it does for goyaml.
std::optional<BlockScalarRefusal> CheckBlockScalar(std::string_view text, std::size_t begin, std::size_t end,
                                                 std::int64_t parent, bool folded) {
  const std::size_t required = static_cast<std::size_t>(std::max<std::int64_t>(parent + 1, 1));
  bool header_alone = false;
  const int increment = IndentationIndicator(text, begin, &header_alone);
  // The column of a header on a line of its own (its line's indentation).
  std::size_t header_column = 0;
  std::size_t header_at = 0;
  if (header_alone) {
    const std::size_t newline = begin >= 2 ? text.rfind('\n', begin - 2) : std::string_view::npos;
    header_at = newline == std::string_view::npos ? 0 : newline + 1;
    for (; text[header_at] == ' '; ++header_at) ++header_column;
  }
  const bool nested = parent >= 0;
  if (!nested && header_column > 0) {
    // A document that is a block scalar whose header is indented on its
    // own line: libfyaml misreads such scalars in many shapes (drops the
    // last line or its break, drops lines it takes for comments, returns
    // bytes it never read, differently from read to read: fuzz finding,
    // yaml_determinism). Of 1,100 generated root block scalars, 85 read
    // here differed from goyaml's values, every one with such a header.
    return BlockScalarRefusal{header_at,
        "malformed YAML: a document that is a block scalar whose '|' or '>' is indented on "
        "a line of its own is not read here: libfyaml reads it differently from goyaml "
        "(kubectl); start that line at column 1"};
  }
  // The first line with text after the header, when it starts with '#'
  // and is less indented than the header but deep enough for goyaml to
  // read it as the scalar's text. libfyaml takes it for a comment, so the
  // token's marks may end before it: looked for in the text itself.
  std::size_t hash_below_header = std::string_view::npos;
  if (header_alone) {
    for (std::size_t at = begin; at < text.size();) {
      std::size_t line_end = text.find('\n', at);
      if (line_end == std::string_view::npos) line_end = text.size();
      std::size_t indent = 0;
      while (at + indent < line_end && text[at + indent] == ' ') ++indent;
      if (at + indent < line_end && text[at + indent] != '\r') {
        if (text[at + indent] == '#' && indent >= required && indent < header_column) hash_below_header = at;
        break;
      }
      at = line_end + 1;
    }
  }
  std::size_t more_indented = std::string_view::npos;  // the first text line deeper than the content
  std::size_t longest_blank = 0;  // spaces of the longest spaces-only line
  std::size_t blank_line = 0;
  bool has_text = false;
  // The content's indentation (the indicator's, else the first text
  // line's) and whether a blank line follows text: libfyaml folds a more
  // indented line after that wrongly (below).
  std::size_t content_indent = increment > 0 ? static_cast<std::size_t>(std::max<std::int64_t>(parent, 0)) +
                                                   static_cast<std::size_t>(increment)
                                             : 0;
  bool blank_after_text = false;
  for (std::size_t at = begin; at < end;) {
    std::size_t line_end = text.find('\n', at);
    if (line_end == std::string_view::npos) line_end = text.size();
    // The end mark may fall inside the next token's line (after its
    // indentation): that line is not the scalar's.
    if (line_end > end) break;
    std::size_t indent = 0;
    while (at + indent < line_end && text[at + indent] == ' ') ++indent;
    const bool blank = at + indent == line_end || (text[at + indent] == '\r' && at + indent + 1 == line_end);
    if (!blank && content_indent == 0) content_indent = indent;
    if (!blank && indent > content_indent && more_indented == std::string_view::npos) more_indented = at;
    if (folded && !blank && blank_after_text && indent > content_indent) {
      // goyaml keeps every line break before a more indented line of a
      // folded scalar ("x", "", " y" reads "x\n\n y\n"); libfyaml drops
      // one and ends the value with a byte it never wrote ("x\n y\n\0").
      return BlockScalarRefusal{at,
          "malformed YAML: a more indented line after an empty line in a folded block "
          "scalar (>) is not read here: libfyaml folds it differently from goyaml "
          "(kubectl); use a literal block scalar (|) or remove the empty line"};
    }
    blank_after_text = (blank && has_text) || (blank_after_text && blank);
    has_text = has_text || !blank;
    if (blank && indent > longest_blank) {
      longest_blank = indent;
      blank_line = at;
    }
    if (!blank && indent < required) {
      return BlockScalarRefusal{at,
          "malformed YAML: the lines of a block scalar must be indented more than the "
          "mapping or sequence that holds it (at least " + std::to_string(required) +
          " spaces here): goyaml (kubectl) ends the scalar before this line, libfyaml "
          "reads the line into it"};
    }
    at = line_end + 1;
  }
  // With an indentation indicator and nothing but spaces-only lines, a
  // line longer than the indentation is text to goyaml (`|2` at column 2
  // then a line of 5 spaces reads as " \n") and libfyaml returns bytes it
  // never wrote ("\0"). Refused rather than read differently.
  const std::size_t indentation = static_cast<std::size_t>(std::max<std::int64_t>(parent, 0)) +
                                  static_cast<std::size_t>(std::max(increment, 0));
  // A block scalar that is the document itself (no enclosing collection)
  // with its header at column 1 reads as goyaml v2 reads it either way:
  // of 3,465 generated root block scalars of up to six lines, the 1,647
  // read here all matched goyaml's values, the same on five reads.
  if (nested && header_alone && more_indented != std::string_view::npos) {
    // `key:` then `|` on a line of its own: libfyaml loses the last line
    // break or bytes of such a scalar when a line is more indented than
    // the content (kubectl: "x\n  b\nc\n", libfyaml: "x\n  b\nc"), and
    // what it returns differed from one read to the next.
    return BlockScalarRefusal{more_indented,
        "malformed YAML: a block scalar whose '|' or '>' stands on a line of its own and "
        "that holds a more indented line is not read here: libfyaml reads it differently "
        "from goyaml (kubectl); put the '|' or '>' after the key"};
  }
  if (nested && hash_below_header != std::string_view::npos) {
    // `k:`, then `    >` and `  # x`: goyaml reads "# x" as the text,
    // libfyaml as a comment under a header deeper than the line.
    return BlockScalarRefusal{hash_below_header,
        "malformed YAML: a block scalar whose '|' or '>' stands on a line of its own, "
        "deeper than a line of its text that starts with '#', is not read here: libfyaml "
        "reads that line as a comment, goyaml (kubectl) as text; put the '|' or '>' after "
        "the key"};
  }
  if (nested && header_alone && has_text && longest_blank > content_indent) {
    // Such a header over a line of spaces longer than the content's
    // indentation: the extra spaces are text to goyaml ("x", then 6
    // spaces under a content indentation of 3, reads "x\n   \n"),
    // libfyaml drops them.
    return BlockScalarRefusal{blank_line,
        "malformed YAML: a block scalar whose '|' or '>' stands on a line of its own and "
        "that holds a line of spaces longer than its indentation is not read here: "
        "libfyaml reads it differently from goyaml (kubectl); put the '|' or '>' after "
        "the key, or remove the trailing spaces"};
  }
  if (increment > 0 && !has_text && longest_blank > indentation) {
    return BlockScalarRefusal{blank_line,
        "malformed YAML: a block scalar with an indentation indicator that holds only "
        "lines of spaces, one longer than its indentation (" + std::to_string(indentation) +
        "), is not read here: goyaml (kubectl) reads the extra spaces as its text, "
        "libfyaml does not"};
  }
  return std::nullopt;
}

// The indentation indicator (1-9) of the block scalar whose lines start
// at `lines` (its header is the line before), 0 without one, -1 when the
// header is not understood. The header is the line's tail after the
// last blank: `|` or `>` and up to two of [1-9+-], then maybe a comment.
// `alone`: only blanks before the header on its line.
int IndentationIndicator(std::string_view text, std::size_t lines, bool* alone) {
  if (lines == 0 || text[lines - 1] != '\n') return -1;
  const std::size_t newline = lines >= 2 ? text.rfind('\n', lines - 2) : std::string_view::npos;
  const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
  std::string_view header = text.substr(start, lines - 1 - start);
  // A comment starts at a '#' after a blank.
  for (std::size_t i = 1; i < header.size(); ++i) {
    if (header[i] == '#' && (header[i - 1] == ' ' || header[i - 1] == '\t')) {
      header = header.substr(0, i);
      break;
    }
  }
  while (!header.empty() && (header.back() == ' ' || header.back() == '\t' || header.back() == '\r')) {
    header.remove_suffix(1);
  }
  std::size_t at = header.size();
  while (at > 0 && header.size() - at < 2 &&
         ((header[at - 1] >= '1' && header[at - 1] <= '9') || header[at - 1] == '+' || header[at - 1] == '-')) {
    --at;
  }
  if (at == 0 || (header[at - 1] != '|' && header[at - 1] != '>')) return -1;
  if (at >= 2 && header[at - 2] != ' ' && header[at - 2] != '\t') return -1;
  *alone = header.substr(0, at - 1).find_first_not_of(" \t") == std::string_view::npos;
  for (std::size_t i = at; i < header.size(); ++i) {
    if (header[i] >= '1' && header[i] <= '9') return header[i] - '0';
  }
  return 0;
}

}  // namespace tjr::yaml::input
