#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::json {

struct ReadOptions {
  std::size_t max_document_bytes = std::size_t{64} << 20;
  std::size_t max_depth = 1000;
};

/// Parses one JSON document. Numbers follow apimachinery's util/json: an
/// integer literal that fits int64 is an int, anything else a float.
/// Duplicate object keys are an error. Errors carry FILE:LINE:COL.
Result<doc::Node> Read(std::string_view text, std::string_view source_name,
                       const ReadOptions& options = {});

/// Writes `root` as Go's encoding/json would marshal the unstructured value:
/// map keys sorted bytewise, HTML-safe escaping, Go float formatting.
/// `pretty` gives `kubectl -o json` layout (4-space indent, trailing newline).
std::string Write(const doc::Node& root, bool pretty);

}  // namespace tjr::json
