#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace tjr::yaml {

/// Where one node of a YAML document lies in its text, for tools that edit
/// a file in place (`tjrender migrate`) and must leave every other byte as
/// it was. Offsets are byte positions in the whole stream.
struct SpanNode {
  enum class Kind : std::uint8_t { kScalar, kMapping, kSequence, kAlias };
  Kind kind = Kind::kScalar;
  /// Collections written in flow style (`{...}`, `[...]`).
  bool flow = false;
  /// Scalars: written plain (not quoted, not a block scalar).
  bool plain = false;
  /// The first byte (an anchor or tag included) and one past the last byte of
  /// the node's own text: a block collection ends with its last item, never
  /// with the comments or blank lines after it.
  std::size_t begin = 0;
  std::size_t end = 0;
  /// 1-based line and column of `begin`, as the tree reader reports nodes.
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  /// Scalars: the value as the parser read it (keys are looked up by it).
  std::string text;

  struct Entry;
  std::vector<Entry> entries;   ///< mappings, in document order
  std::vector<SpanNode> items;  ///< sequences

  /// The entry whose key is the scalar `key`, or nullptr.
  const Entry* Find(std::string_view key) const;
};

struct SpanNode::Entry {
  SpanNode key;
  SpanNode value;
};

/// Reads the spans of every document of a YAML (or JSON) stream, cut into
/// documents as kubectl cuts it. Documents that hold nothing are left out.
/// Errors carry FILE:LINE:COL; the text should have been accepted by
/// ReadStream first, which is stricter.
Result<std::vector<SpanNode>> ReadSpans(std::string_view text, std::string_view source_name);

}  // namespace tjr::yaml
