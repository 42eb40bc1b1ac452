// Go encoding/json output for unstructured values (map[string]interface{}
// and friends), byte for byte, in compact and `kubectl -o json` layouts.

#include <algorithm>
#include <string>
#include <vector>

#include "doc/number_format.h"
#include "json/json.h"
#include "json/utf8.h"

namespace tjr::json {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// Bytes that encoding/json (with HTML escaping on) copies unchanged.
bool IsSafeAscii(unsigned char c) {
  return c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

class Writer {
 public:
  Writer(bool pretty, std::string* out) : pretty_(pretty), out_(*out) {}

  void Value(const doc::Node& node, int depth) {
    switch (node.kind()) {
      case doc::Kind::kNull: out_ += "null"; break;
      case doc::Kind::kBool: out_ += node.bool_value() ? "true" : "false"; break;
      case doc::Kind::kInt: out_ += std::to_string(node.int_value()); break;
      case doc::Kind::kFloat: out_ += doc::FormatFloatJson(node.float_value()); break;
      case doc::Kind::kString: AppendQuoted(node.string_value(), &out_); break;
      case doc::Kind::kSequence: Sequence(node, depth); break;
      case doc::Kind::kMapping: Mapping(node, depth); break;
    }
  }

 private:
  void Newline(int depth) {
    if (!pretty_) return;
    out_ += '\n';
    out_.append(static_cast<std::size_t>(depth) * 4, ' ');
  }

  void Sequence(const doc::Node& node, int depth) {
    const std::vector<doc::Node>& items = node.items();
    out_ += '[';
    if (items.empty()) {
      out_ += ']';
      return;
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_ += ',';
      Newline(depth + 1);
      Value(items[i], depth + 1);
    }
    Newline(depth);
    out_ += ']';
  }

  void Mapping(const doc::Node& node, int depth) {
    const std::vector<doc::Field>& fields = node.fields();
    out_ += '{';
    if (fields.empty()) {
      out_ += '}';
      return;
    }
    // Go sorts map keys as raw byte strings, before any escaping.
    std::vector<const doc::Field*> sorted;
    sorted.reserve(fields.size());
    for (const doc::Field& field : fields) sorted.push_back(&field);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; });
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (i > 0) out_ += ',';
      Newline(depth + 1);
      AppendQuoted(sorted[i]->key, &out_);
      out_ += pretty_ ? ": " : ":";
      Value(sorted[i]->value, depth + 1);
    }
    Newline(depth);
    out_ += '}';
  }

  bool pretty_;
  std::string& out_;
};

}  // namespace

void AppendQuoted(std::string_view value, std::string* out) {
  out->push_back('"');
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < value.size()) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c < 0x80) {
      if (IsSafeAscii(c)) {
        ++i;
        continue;
      }
      out->append(value.substr(start, i - start));
      switch (c) {
        case '"': *out += "\\\""; break;
        case '\\': *out += "\\\\"; break;
        case '\b': *out += "\\b"; break;
        case '\f': *out += "\\f"; break;
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        default:
          *out += "\\u00";
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xF]);
      }
      start = ++i;
      continue;
    }
    const Rune rune = DecodeRune(value.substr(i));
    if (rune.value == kReplacementChar && rune.size == 1) {
      out->append(value.substr(start, i - start));
      *out += "\\ufffd";
      start = ++i;
      continue;
    }
    if (rune.value == 0x2028 || rune.value == 0x2029) {
      out->append(value.substr(start, i - start));
      *out += "\\u202";
      out->push_back(kHex[rune.value & 0xF]);
      i += static_cast<std::size_t>(rune.size);
      start = i;
      continue;
    }
    i += static_cast<std::size_t>(rune.size);
  }
  out->append(value.substr(start));
  out->push_back('"');
}

std::string Write(const doc::Node& root, bool pretty) {
  std::string out;
  Writer(pretty, &out).Value(root, 0);
  if (pretty) out += '\n';
  return out;
}

}  // namespace tjr::json
