#include "yaml/writer.h"

#include <charconv>
#include <cstddef>
#include <deque>
#include <memory>
#include <string_view>
#include <vector>

#include "yaml/emitter.h"
#include "yaml/json_roundtrip.h"
#include "yaml/key_order.h"
#include "yaml/resolve.h"
#include "yaml/scalar_style.h"

namespace tjr::yaml {
namespace {

using detail::Emitter;
using detail::ScalarStyle;

// goyaml writes a key longer than this (in bytes), or one with a line
// break, as a complex key: "? key" on one line, ": value" on the next.
constexpr std::size_t kMaxSimpleKeyLength = 128;

// Sorting scratch for one mapping depth, reused across mappings.
struct KeyScratch {
  std::vector<std::string_view> keys;
  std::vector<std::size_t> order;
  std::vector<std::size_t> merge_buffer;
  std::deque<std::string> converted;  // keys changed by the JSON round trip
};

// Walks the tree in the order goyaml's emitter receives events and applies
// its state machine for block collections (emitterc.go's
// yaml_emitter_emit_block_* and yaml_emitter_emit_node).
class TreeWriter {
 public:
  // With `spans`, every node written is recorded there; without, the
  // writer pays one null test per node.
  TreeWriter(std::string* out, std::vector<WrittenSpan>* spans)
      : emitter_(out), out_(out), spans_(spans) {}

  void Document(const doc::Node& root) {
    Child(root, /*mapping_context=*/false, {}, WrittenSpan::npos);
    emitter_.WriteIndent();  // document end: finish the last line
  }

 private:
  void Child(const doc::Node& node, bool mapping_context, std::string_view key, std::size_t index) {
    if (spans_ == nullptr) {
      Node(node, mapping_context);
    } else {
      ObservedNode(node, mapping_context, key, index);
    }
  }

  void ObservedNode(const doc::Node& node, bool mapping_context, std::string_view key,
                    std::size_t index) {
    const std::size_t self = spans_->size();
    spans_->push_back({parent_, key, index, &node, out_->size(), 0, WrittenStyle::kNone});
    const std::size_t saved_parent = parent_;
    parent_ = self;
    Node(node, mapping_context);
    parent_ = saved_parent;

    WrittenSpan& span = (*spans_)[self];
    span.end = out_->size();
    // The separating space or line break and indentation were written by
    // the node's own first step; the node starts after them.
    while (span.begin < span.end && ((*out_)[span.begin] == ' ' || (*out_)[span.begin] == '\n')) {
      ++span.begin;
    }
    // A plain scalar never starts with a quote or '|' (it would not read
    // back as itself), so the first byte tells the style.
    if (node.is_scalar() && span.begin < span.end) {
      switch ((*out_)[span.begin]) {
        case '|': span.style = WrittenStyle::kLiteral; break;
        case '\'': span.style = WrittenStyle::kSingleQuoted; break;
        case '"': span.style = WrittenStyle::kDoubleQuoted; break;
        default: span.style = WrittenStyle::kPlain; break;
      }
    }
  }

  void Node(const doc::Node& node, bool mapping_context) {
    switch (node.kind()) {
      case doc::Kind::kNull:
        Plain("null");
        return;
      case doc::Kind::kBool:
        Plain(node.bool_value() ? "true" : "false");
        return;
      case doc::Kind::kInt: {
        char buffer[24];
        auto end = std::to_chars(buffer, buffer + sizeof buffer, node.int_value()).ptr;
        Plain(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
        return;
      }
      case doc::Kind::kFloat:
        Plain(detail::FloatText(node.float_value()));
        return;
      case doc::Kind::kString: {
        const std::string& value = node.string_value();
        if (detail::IsWord(value)) {  // ASCII: the JSON round trip keeps it
          Word(value, /*simple_key=*/false);
        } else if (!detail::ChangedByJsonRoundTrip(value)) {
          String(value);
        } else {
          value_scratch_ = detail::JsonRoundTrip(value);
          String(value_scratch_);
        }
        return;
      }
      case doc::Kind::kSequence:
        Sequence(node, mapping_context);
        return;
      case doc::Kind::kMapping:
        Mapping(node);
        return;
    }
  }

  // Numbers, bools and null: always plain and without spaces, so the
  // indentation a folded line would take does not matter.
  void Plain(std::string_view text) { emitter_.WritePlain(text, false); }

  void String(std::string_view value) {
    StyledString(value, detail::RequestedStringStyle(value), detail::AnalyzeScalar(value),
                 /*simple_key=*/false);
  }

  // String and StyledString for a word, which every step can take the
  // short way: one scan to classify it, one append to write it plain.
  void Word(std::string_view value, bool simple_key) {
    const detail::ScalarAnalysis analysis = detail::AnalyzeWord(value);
    const ScalarStyle requested = detail::RequestedWordStyle(value);
    if (detail::SelectScalarStyle(requested, value, analysis, simple_key) == ScalarStyle::kPlain) {
      emitter_.WritePlainWord(value);  // no folding, so the indentation is not needed
      return;
    }
    StyledString(value, requested, analysis, simple_key);
  }

  void StyledString(std::string_view value, ScalarStyle requested,
                    const detail::ScalarAnalysis& analysis, bool simple_key) {
    const ScalarStyle style = detail::SelectScalarStyle(requested, value, analysis, simple_key);
    const int saved = emitter_.indent();
    emitter_.IncreaseIndent(true, false);
    switch (style) {
      case ScalarStyle::kPlain:
        emitter_.WritePlain(value, !simple_key);
        break;
      case ScalarStyle::kSingleQuoted:
        emitter_.WriteSingleQuoted(value, !simple_key);
        break;
      case ScalarStyle::kDoubleQuoted:
        emitter_.WriteDoubleQuoted(value, !simple_key);
        break;
      case ScalarStyle::kLiteral:
        emitter_.WriteLiteral(value);
        break;
    }
    emitter_.set_indent(saved);
  }

  void Sequence(const doc::Node& node, bool mapping_context) {
    if (node.empty()) {
      emitter_.WriteIndicator("[", true, true, false);
      emitter_.WriteIndicator("]", false, false, false);
      return;
    }
    const int saved = emitter_.indent();
    // A sequence right after "key:" is not indented ("key:\n- a").
    emitter_.IncreaseIndent(false, mapping_context && !emitter_.indention());
    const std::vector<doc::Node>& items = node.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
      emitter_.WriteIndent();
      emitter_.WriteIndicator("-", true, false, true);
      Child(items[i], /*mapping_context=*/false, {}, i);
    }
    emitter_.set_indent(saved);
  }

  void Mapping(const doc::Node& node) {
    if (node.empty()) {
      emitter_.WriteIndicator("{", true, true, false);
      emitter_.WriteIndicator("}", false, false, false);
      return;
    }
    KeyScratch& scratch = ScratchForDepth();
    const std::vector<doc::Field>& fields = node.fields();
    PrepareKeys(fields, &scratch);
    detail::SortKeys(scratch.keys, &scratch.order, &scratch.merge_buffer);

    const int saved = emitter_.indent();
    emitter_.IncreaseIndent(false, false);
    for (std::size_t index : scratch.order) {
      std::string_view key = scratch.keys[index];
      emitter_.WriteIndent();
      // kubectl writes the key "<<" plain, which reads back as a merge key
      // (and is refused); tjrender quotes it, so what it writes reads back.
      const bool merge_spelling = key == "<<";
      if (!merge_spelling && key.size() <= kMaxSimpleKeyLength && detail::IsWord(key)) {
        Word(key, /*simple_key=*/true);
        emitter_.WriteIndicator(":", false, false, false);
        Child(fields[index].value, /*mapping_context=*/true, fields[index].key, WrittenSpan::npos);
        continue;
      }
      const detail::ScalarAnalysis analysis = detail::AnalyzeScalar(key);
      const ScalarStyle requested = merge_spelling ? ScalarStyle::kDoubleQuoted : detail::RequestedStringStyle(key);
      if (!analysis.multiline && key.size() <= kMaxSimpleKeyLength) {
        StyledString(key, requested, analysis, /*simple_key=*/true);
        emitter_.WriteIndicator(":", false, false, false);
      } else {
        emitter_.WriteIndicator("?", true, false, true);
        StyledString(key, requested, analysis, /*simple_key=*/false);
        emitter_.WriteIndent();
        emitter_.WriteIndicator(":", true, false, true);
      }
      Child(fields[index].value, /*mapping_context=*/true, fields[index].key, WrittenSpan::npos);
    }
    emitter_.set_indent(saved);
    --depth_;
  }

  KeyScratch& ScratchForDepth() {
    if (depth_ == scratch_.size()) scratch_.push_back(std::make_unique<KeyScratch>());
    return *scratch_[depth_++];
  }

  // The keys as goyaml holds them. Two keys can become one after the JSON
  // round trip (invalid UTF-8, folded NELs); goyaml's map then keeps the
  // value that came last in encoding/json's bytewise key order.
  static void PrepareKeys(const std::vector<doc::Field>& fields, KeyScratch* scratch) {
    const std::size_t n = fields.size();
    scratch->keys.resize(n);
    scratch->order.clear();
    scratch->converted.clear();
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& key = fields[i].key;
      if (detail::ChangedByJsonRoundTrip(key)) {
        scratch->keys[i] = scratch->converted.emplace_back(detail::JsonRoundTrip(key));
        changed = true;
      } else {
        scratch->keys[i] = key;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      bool keep = true;
      for (std::size_t j = 0; changed && keep && j < n; ++j) {
        keep = j == i || scratch->keys[j] != scratch->keys[i] || fields[j].key < fields[i].key;
      }
      if (keep) scratch->order.push_back(i);
    }
  }

  Emitter emitter_;
  std::string* out_;
  std::vector<WrittenSpan>* spans_;
  std::size_t parent_ = WrittenSpan::npos;
  std::string value_scratch_;
  // Kept per thread across documents: a render writes thousands, and each
  // would otherwise allocate its sorting scratch again.
  static thread_local std::vector<std::unique_ptr<KeyScratch>> scratch_;
  std::size_t depth_ = 0;
};

thread_local std::vector<std::unique_ptr<KeyScratch>> TreeWriter::scratch_;

}  // namespace

void Write(const doc::Node& root, std::string* out) {
  TreeWriter writer(out, nullptr);
  writer.Document(root);
}

void WriteWithSpans(const doc::Node& root, std::string* out, std::vector<WrittenSpan>* spans) {
  TreeWriter writer(out, spans);
  writer.Document(root);
}

std::string Write(const doc::Node& root) {
  std::string out;
  Write(root, &out);
  return out;
}

std::string WriteStream(const std::vector<doc::Node>& objects) {
  std::string out;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (i > 0) out += "---\n";
    Write(objects[i], &out);
  }
  return out;
}

}  // namespace tjr::yaml
