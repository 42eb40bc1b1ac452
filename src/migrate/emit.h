#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "yaml/reader_spans.h"

// New YAML text for a migrated block, written in the style of the file it
// goes into. Values moved from the old fields are copied as text, so their
// comments, quoting and flow style travel with them.
namespace tjr::migrate {

/// A value to write: a mapping, a sequence, a scalar already written as
/// YAML, or the value of an entry of the source file, copied.
struct OutValue {
  enum class Kind { kMapping, kSequence, kScalar, kCopy };
  Kind kind = Kind::kMapping;
  std::vector<std::pair<std::string, OutValue>> fields;
  std::vector<OutValue> items;
  std::string scalar;
  const yaml::SpanNode::Entry* copy = nullptr;
  /// kCopy in block style: a comment after the value on its last line comes too.
  bool with_comment = false;

  // Defined after the class: a container of OutValue cannot be destroyed
  // inside OutValue's own definition (clang instantiates C++20's constexpr
  // std::vector destructor there).
  OutValue();
  OutValue(const OutValue&);
  OutValue(OutValue&&) noexcept;
  OutValue& operator=(const OutValue&);
  OutValue& operator=(OutValue&&) noexcept;
  ~OutValue();

  static OutValue Scalar(std::string text);
  static OutValue Copy(const yaml::SpanNode::Entry* entry);
};

inline OutValue::OutValue() = default;
inline OutValue::OutValue(const OutValue&) = default;
inline OutValue::OutValue(OutValue&&) noexcept = default;
inline OutValue& OutValue::operator=(const OutValue&) = default;
inline OutValue& OutValue::operator=(OutValue&&) noexcept = default;
inline OutValue::~OutValue() = default;

inline OutValue OutValue::Scalar(std::string text) {
  OutValue value;
  value.kind = Kind::kScalar;
  value.scalar = std::move(text);
  return value;
}

inline OutValue OutValue::Copy(const yaml::SpanNode::Entry* entry) {
  OutValue value;
  value.kind = Kind::kCopy;
  value.copy = entry;
  return value;
}

/// How the file writes YAML.
struct TextStyle {
  std::string eol = "\n";         ///< "\n" or "\r\n", from the file's first line break
  std::size_t indent = 2;         ///< a block mapping's children, relative to its key
  std::size_t sequence_dash = 0;  ///< a block sequence's '-', relative to its key (0 or indent)
  bool quote_keys = false;        ///< flow mappings quote their keys (JSON files)
};

/// The column (0-based, in bytes) of `pos` within its line.
std::size_t ColumnOf(std::string_view text, std::size_t pos);

/// Guesses the style of the document `root` of `text`.
TextStyle DetectStyle(std::string_view text, const yaml::SpanNode& root);

/// Where the value of `entry` ends: past its last byte, or past the ':' of an
/// entry without a value.
std::size_t EntryEnd(std::string_view text, const yaml::SpanNode::Entry& entry);

/// `pos`, or the end of its line (before the line break) when the rest of
/// the line is a comment.
std::size_t TrailingCommentEnd(std::string_view text, std::size_t pos);

/// `key:` and its value in block style, the key at column `key_column`; the
/// caller places the first byte (no leading indentation, no line break at
/// the end).
std::string EmitBlockEntry(std::string_view text, const TextStyle& style, std::size_t key_column,
                           const std::string& key, const OutValue& value);

/// `key: value` in flow style, on one line except for copied values that
/// span lines.
std::string EmitFlowEntry(std::string_view text, const TextStyle& style, const std::string& key,
                          const OutValue& value);

/// A scalar as YAML: plain when that reads back as the same string in both
/// block and flow context, else double-quoted with JSON escapes.
std::string ScalarText(const std::string& value);

}  // namespace tjr::migrate
