#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::yaml::input {

/// One document of a stream as kubectl cuts it.
struct Chunk {
  std::string_view text;
  /// 1-based line of the chunk's first byte in the whole stream.
  std::uint32_t first_line = 1;
};

/// Whether kubectl's YAMLOrJSONDecoder takes the stream as JSON: its first
/// non-space byte is '{' (a leading '[' is still read as YAML).
bool LooksLikeJson(std::string_view text);

/// Cuts a stream where apimachinery's YAMLReader does: at every line that
/// starts with "---", which may be followed only by spaces or a comment.
/// Chunks keep their line breaks; empty chunks are dropped. Lines count
/// from `first_line`, the line of text[0].
Result<std::vector<Chunk>> SplitDocuments(std::string_view text, const std::string* file,
                                          std::uint32_t first_line = 1);

/// Whether libfyaml, reading the whole stream at once, finds the same
/// documents as kubectl's line-based cut: every "---" line is a plain
/// document marker, and no line starts a directive ('%') or an end
/// marker ("..."), which would make the two disagree.
bool SameDocumentsAsYaml(std::string_view text);

/// The input checks of goyaml's reader: valid UTF-8 and no control
/// characters other than tab, LF, CR and NEL. `chunk` lies inside `stream`,
/// which is used for error locations (stream[0] on line `first_line`).
Status CheckCharacters(std::string_view chunk, std::string_view stream, const std::string* file,
                       std::uint32_t first_line = 1);

}  // namespace tjr::yaml::input
