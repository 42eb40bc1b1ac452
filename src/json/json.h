#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "gocompat/json_quote.h"

namespace tjr::json {

struct ReadOptions {
  std::size_t max_document_bytes = std::size_t{64} << 20;
  std::size_t max_depth = 1000;
  /// Values per document (every scalar, array and object counts once).
  /// The API server takes request bodies of at most 3 MiB, so no object it
  /// accepts holds 2,000,000 values; the bound keeps memory near 250 MB.
  std::size_t max_document_values = 2'000'000;
  /// False: nodes carry the file name only (line and column 0). A value
  /// that fails is read again with locations, so errors are the same. For
  /// embedded data: tracking where every token starts is most of the cost
  /// of a parse.
  bool locations = true;
  /// The line of text[0] in the file the text was cut from: locations count
  /// from it (a document of a stream read on its own).
  std::uint32_t first_line = 1;
};

/// Parses one JSON document. Numbers follow apimachinery's util/json: an
/// integer literal that fits int64 is an int, anything else a float.
/// Duplicate object keys are an error. Errors carry FILE:LINE:COL.
Result<doc::Node> Read(std::string_view text, std::string_view source_name,
                       const ReadOptions& options = {});

/// Parses a stream of JSON values separated by optional whitespace, as
/// encoding/json's Decoder reads kubectl's JSON input. Values are returned
/// in order, `null` ones included; `max_document_bytes` bounds each value.
Result<std::vector<doc::Node>> ReadStream(std::string_view text, std::string_view source_name,
                                          const ReadOptions& options = {});

/// Writes `root` as Go's encoding/json would marshal the unstructured value:
/// map keys sorted bytewise, HTML-safe escaping, Go float formatting.
/// `pretty` gives `kubectl -o json` layout (4-space indent, trailing newline).
/// Floats must be finite: encoding/json has no text for NaN or infinities
/// (the readers never produce them).
std::string Write(const doc::Node& root, bool pretty);

/// Appends `value` as a Go encoding/json string literal (quotes included),
/// as Write does for every string; gocompat::AppendJsonString has the rules.
inline void AppendQuoted(std::string_view value, std::string* out) {
  gocompat::AppendJsonString(value, out);
}

}  // namespace tjr::json
