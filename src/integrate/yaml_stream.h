#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

// A YAML stream cut into its documents' own bytes, so that a filter (a Helm
// post-renderer) can hand back every document it does not change exactly as
// it came.
namespace tjr::integrate {

/// One document's bytes: from its `---` line (or the start of the stream)
/// up to the next document's. Concatenating every RawDocument's `text`
/// gives the stream back byte for byte.
struct RawDocument {
  std::string_view text;
  std::size_t first_line = 1;  ///< 1-based line of text[0] in the stream
};

/// Cuts at lines that are `---` or start with `--- ` / `---\t` (a document
/// marker; a block scalar's content is indented, so a column-0 `---` inside
/// one would end it in YAML too). Directives (`%YAML`) and comments before
/// a marker go with the preceding document.
std::vector<RawDocument> SplitDocuments(std::string_view stream);

/// The documents of one RawDocument (none when it is empty or only
/// comments), with locations as lines of the whole stream.
Result<std::vector<doc::Node>> ParseDocument(const RawDocument& raw, std::string_view source_name);

}  // namespace tjr::integrate
