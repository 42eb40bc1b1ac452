// Go encoding/json output for unstructured values (map[string]interface{}
// and friends), byte for byte, in compact and `kubectl -o json` layouts.

#include <algorithm>
#include <string>
#include <vector>

#include "doc/number_format.h"
#include "gocompat/json_quote.h"
#include "json/json.h"

namespace tjr::json {
namespace {

class Writer {
 public:
  Writer(bool pretty, std::string* out) : pretty_(pretty), out_(*out) {}

  void Value(const doc::Node& node, int depth) {
    switch (node.kind()) {
      case doc::Kind::kNull: out_ += "null"; break;
      case doc::Kind::kBool: out_ += node.bool_value() ? "true" : "false"; break;
      case doc::Kind::kInt: out_ += std::to_string(node.int_value()); break;
      case doc::Kind::kFloat: out_ += doc::FormatFloatJson(node.float_value()); break;
      case doc::Kind::kString: gocompat::AppendJsonString(node.string_value(), &out_); break;
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
      gocompat::AppendJsonString(sorted[i]->key, &out_);
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

std::string Write(const doc::Node& root, bool pretty) {
  std::string out;
  Writer(pretty, &out).Value(root, 0);
  if (pretty) out += '\n';
  return out;
}

}  // namespace tjr::json
