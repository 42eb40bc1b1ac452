#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "doc/node.h"
#include "yaml/tree_builder.h"

namespace tjr::yaml::input {

/// Builds the one document of `text` without libfyaml when the text keeps to
/// the block subset nearly every manifest is written in: ASCII without tabs,
/// a block mapping or sequence at column 1, plain keys, one-line plain or
/// quoted scalars (no escapes), comments and blank lines; no document
/// markers, directives, anchors, aliases, tags, flow collections, block
/// scalars, multi-line scalars or empty values.
///
/// It feeds `builder` (fresh, after Reset) the events libfyaml would, with
/// the same locations (`first_line` is the line of `text` in its file), and
/// returns true with the document in *root. Anything else, a builder error
/// included, returns false: the caller then reads `text` with libfyaml,
/// which gives every error its usual message. Scanning libfyaml's way costs
/// over a thousand instructions per token; this costs a few per byte.
bool BuildBlockSubset(std::string_view text, const std::string* file, std::uint32_t first_line,
                      TreeBuilder& builder, doc::Node* root);

}  // namespace tjr::yaml::input
