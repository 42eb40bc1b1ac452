#include "migrate/emit.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "json/json.h"

namespace tjr::migrate {
namespace {

using Kind = yaml::SpanNode::Kind;

std::optional<std::size_t> FindIndent(std::string_view text, const yaml::SpanNode& node) {
  for (const auto& entry : node.entries) {
    const yaml::SpanNode& value = entry.value;
    if (value.kind == Kind::kMapping && !value.flow && !value.entries.empty() &&
        value.line > entry.key.line) {
      const std::size_t key = ColumnOf(text, entry.key.begin);
      const std::size_t child = ColumnOf(text, value.begin);
      if (child > key) return child - key;
    }
    if (auto found = FindIndent(text, value)) return found;
  }
  for (const auto& item : node.items) {
    if (auto found = FindIndent(text, item)) return found;
  }
  return std::nullopt;
}

std::optional<std::size_t> FindDash(std::string_view text, const yaml::SpanNode& node) {
  for (const auto& entry : node.entries) {
    const yaml::SpanNode& value = entry.value;
    if (value.kind == Kind::kSequence && !value.flow && !value.items.empty() &&
        value.line > entry.key.line) {
      const std::size_t key = ColumnOf(text, entry.key.begin);
      const std::size_t dash = ColumnOf(text, value.begin);
      if (dash >= key) return dash - key;
    }
    if (auto found = FindDash(text, value)) return found;
  }
  for (const auto& item : node.items) {
    if (auto found = FindDash(text, item)) return found;
  }
  return std::nullopt;
}

// Text after the ':' of `entry` up to the end of its value.
std::string_view ValueTextAfterColon(std::string_view text, const yaml::SpanNode::Entry& entry,
                                     bool with_comment) {
  std::size_t colon = text.find(':', entry.key.end);
  if (colon == std::string_view::npos) colon = entry.key.end;
  std::size_t end = std::max(colon + 1, EntryEnd(text, entry));
  if (with_comment) end = TrailingCommentEnd(text, end);
  return text.substr(colon + 1, end - colon - 1);
}

// `value` with every line after the first moved `delta` columns.
std::string Reindent(std::string_view value, long delta) {
  std::string out;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= value.size()) {
    std::size_t newline = value.find('\n', pos);
    const std::size_t end = newline == std::string_view::npos ? value.size() : newline + 1;
    std::string_view line = value.substr(pos, end - pos);
    const bool blank = line.find_first_not_of(" \t\r\n") == std::string_view::npos;
    if (!first && !blank) {
      if (delta > 0) {
        out.append(static_cast<std::size_t>(delta), ' ');
      } else {
        std::size_t remove = 0;
        while (remove < static_cast<std::size_t>(-delta) && remove < line.size() &&
               line[remove] == ' ') {
          ++remove;
        }
        line.remove_prefix(remove);
      }
    }
    out.append(line);
    first = false;
    if (newline == std::string_view::npos) break;
    pos = end;
  }
  return out;
}

class BlockWriter {
 public:
  BlockWriter(std::string_view text, const TextStyle& style) : text_(text), style_(style) {}

  void Entries(const OutValue& mapping, std::size_t column, bool first_inline) {
    bool first = true;
    for (const auto& [key, value] : mapping.fields) {
      if (!(first && first_inline)) NewLine(column);
      first = false;
      Entry(key, value, column);
    }
  }

  void Entry(const std::string& key, const OutValue& value, std::size_t column) {
    out += key;
    out += ':';
    switch (value.kind) {
      case OutValue::Kind::kScalar:
        out += ' ';
        out += value.scalar;
        return;
      case OutValue::Kind::kCopy: {
        const long delta = static_cast<long>(column) -
                           static_cast<long>(ColumnOf(text_, value.copy->key.begin));
        out += Reindent(ValueTextAfterColon(text_, *value.copy, value.with_comment), delta);
        return;
      }
      case OutValue::Kind::kMapping:
        if (value.fields.empty()) {
          out += " {}";
          return;
        }
        Entries(value, column + style_.indent, false);
        return;
      case OutValue::Kind::kSequence:
        if (value.items.empty()) {
          out += " []";
          return;
        }
        for (const OutValue& item : value.items) {
          NewLine(column + style_.sequence_dash);
          out += "- ";
          Entries(item, column + style_.sequence_dash + 2, true);
        }
        return;
    }
  }

  std::string out;

 private:
  void NewLine(std::size_t column) {
    out += style_.eol;
    out.append(column, ' ');
  }

  std::string_view text_;
  const TextStyle& style_;
};

std::string FlowKey(const TextStyle& style, const std::string& key) {
  if (!style.quote_keys) return key;
  std::string quoted;
  json::AppendQuoted(key, &quoted);
  return quoted;
}

std::string FlowValue(std::string_view text, const TextStyle& style, const OutValue& value) {
  switch (value.kind) {
    case OutValue::Kind::kScalar:
      return value.scalar;
    case OutValue::Kind::kCopy: {
      const yaml::SpanNode& copied = value.copy->value;
      return std::string(text.substr(copied.begin, copied.end - copied.begin));
    }
    case OutValue::Kind::kMapping: {
      std::string out = "{";
      for (std::size_t i = 0; i < value.fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += EmitFlowEntry(text, style, value.fields[i].first, value.fields[i].second);
      }
      return out + "}";
    }
    case OutValue::Kind::kSequence: {
      std::string out = "[";
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (i > 0) out += ", ";
        out += FlowValue(text, style, value.items[i]);
      }
      return out + "]";
    }
  }
  return {};
}

}  // namespace

std::size_t ColumnOf(std::string_view text, std::size_t pos) {
  // A lone CR ends a line too, as the YAML reader takes it (goyaml does).
  std::size_t start = pos;
  while (start > 0 && text[start - 1] != '\n' && text[start - 1] != '\r') --start;
  return pos - start;
}

TextStyle DetectStyle(std::string_view text, const yaml::SpanNode& root) {
  TextStyle style;
  const std::size_t newline = text.find('\n');
  if (newline != std::string_view::npos && newline > 0 && text[newline - 1] == '\r') {
    style.eol = "\r\n";
  }
  const yaml::SpanNode::Entry* spec = root.Find("spec");
  std::optional<std::size_t> indent = spec ? FindIndent(text, spec->value) : std::nullopt;
  if (spec && spec->value.kind == Kind::kMapping && !spec->value.flow &&
      !spec->value.entries.empty() && spec->value.line > spec->key.line) {
    const std::size_t key = ColumnOf(text, spec->key.begin);
    const std::size_t child = ColumnOf(text, spec->value.begin);
    if (child > key) indent = child - key;
  }
  if (!indent) indent = FindIndent(text, root);
  if (indent && *indent > 0) style.indent = *indent;
  std::optional<std::size_t> dash = spec ? FindDash(text, spec->value) : std::nullopt;
  if (!dash) dash = FindDash(text, root);
  if (dash) style.sequence_dash = *dash;
  style.quote_keys = root.flow && !root.entries.empty() && text[root.entries[0].key.begin] == '"';
  return style;
}

std::size_t TrailingCommentEnd(std::string_view text, std::size_t pos) {
  std::size_t i = pos;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i == text.size() || text[i] != '#' || i == pos) return pos;
  std::size_t end = text.find('\n', i);
  if (end == std::string_view::npos) end = text.size();
  if (end > i && text[end - 1] == '\r') --end;
  return end;
}

std::size_t EntryEnd(std::string_view text, const yaml::SpanNode::Entry& entry) {
  const yaml::SpanNode& value = entry.value;
  const bool empty = value.kind == Kind::kScalar && value.plain && value.text.empty();
  if (!empty && value.end > entry.key.end) return value.end;
  const std::size_t colon = text.find(':', entry.key.end);
  return colon == std::string_view::npos ? entry.key.end : colon + 1;
}

std::string EmitBlockEntry(std::string_view text, const TextStyle& style, std::size_t key_column,
                           const std::string& key, const OutValue& value) {
  BlockWriter writer(text, style);
  writer.Entry(key, value, key_column);
  return std::move(writer.out);
}

std::string EmitFlowEntry(std::string_view text, const TextStyle& style, const std::string& key,
                          const OutValue& value) {
  return FlowKey(style, key) + ": " + FlowValue(text, style, value);
}

std::string ScalarText(const std::string& value) {
  static constexpr std::array<std::string_view, 11> kReserved = {
      "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", ""};
  std::string lower;
  for (char c : value) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool plain = !value.empty() && std::isalpha(static_cast<unsigned char>(value[0])) &&
               std::find(kReserved.begin(), kReserved.end(), lower) == kReserved.end();
  for (char c : value) {
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '/' ||
                      c == '_' || c == '-');
  }
  if (plain) return value;
  std::string quoted;
  json::AppendQuoted(value, &quoted);
  return quoted;
}

}  // namespace tjr::migrate
