#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "doc/node.h"

namespace tjr::yaml {

/// Appends `root` as YAML, byte-identical to `kubectl ... -o yaml` for the
/// same data (sigs.k8s.io/yaml.Marshal: encoding/json, then goyaml v2's
/// encoder with sorted keys, its quoting rules and its 80-column folding).
void Write(const doc::Node& root, std::string* out);
std::string Write(const doc::Node& root);

/// How a scalar was written; kNone for a mapping or a sequence (`[]` and
/// `{}` included).
enum class WrittenStyle : std::uint8_t { kNone, kPlain, kSingleQuoted, kDoubleQuoted, kLiteral };

/// Where one node of the tree went in the text Write produced, for a
/// reader of the text that needs to know which bytes hold which node (the
/// annotated YAML of `tjrender explain`).
struct WrittenSpan {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// The index in the span list of the mapping or sequence holding the
  /// node; npos for the root. Parents come before their children.
  std::size_t parent = npos;
  /// For a mapping value: its key as the tree holds it (it points into the
  /// tree, which must outlive the span). Empty otherwise.
  std::string_view key;
  /// For a sequence item: its index; npos otherwise.
  std::size_t index = npos;
  const doc::Node* node = nullptr;
  /// The node's bytes in the output, [begin, end): from its first character
  /// (after the space or line break that separates it from its key or
  /// `-`) to its last; a literal block's text ends with the line break of
  /// its last line.
  std::size_t begin = 0;
  std::size_t end = 0;
  WrittenStyle style = WrittenStyle::kNone;
};

/// Write that also appends to `spans` one span for every node written, in
/// the order written: the root, then each mapping value (in the writer's
/// sorted key order) and each sequence item. The bytes are Write's.
void WriteWithSpans(const doc::Node& root, std::string* out, std::vector<WrittenSpan>* spans);

/// Several objects as kubectl prints them: "---\n" before every object after
/// the first.
std::string WriteStream(const std::vector<doc::Node>& objects);

}  // namespace tjr::yaml
