// `tjrender explain`'s default output: the rendered objects exactly as
// `render` writes them, each value's line followed by a comment naming the
// step that wrote it. The comments only ever go where YAML allows one
// without changing what the text reads as: after the last line of a
// scalar, after a literal block's header, after a line that only opens a
// mapping or a list, never inside a scalar or on a complex key's line.

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "explain/chains.h"
#include "explain/formats.h"
#include "explain/palette.h"
#include "explain/paths.h"
#include "json/json.h"
#include "yaml/writer.h"

namespace tjr::explain {
namespace {

using yaml::WrittenSpan;
using yaml::WrittenStyle;

// A deleted value is shown up to this many bytes of its JSON.
constexpr std::size_t kShownValue = 120;

void AppendHex(unsigned value, int digits, std::string* out) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
    out->push_back(kDigits[(value >> shift) & 0xF]);
  }
}

// The code point of the well-formed UTF-8 sequence at `i` and its length,
// or length 0 when the bytes there are not one.
std::pair<char32_t, std::size_t> DecodeUtf8(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  std::size_t width = 0;
  char32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    width = 2, code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    width = 3, code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    width = 4, code = lead & 0x07;
  }
  if (width == 0 || i + width > s.size()) return {0, 0};
  for (std::size_t k = 1; k < width; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {0, 0};
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const char32_t smallest = width == 2 ? 0x80 : width == 3 ? 0x800 : 0x10000;
  if (code < smallest || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {0, 0};
  return {code, width};
}

// Characters a YAML reader takes in a comment as themselves: not controls,
// not a line break (NEL, LS and PS are breaks to goyaml), not a BOM or a
// noncharacter it refuses.
bool CommentSafe(char32_t code) {
  if (code < 0x80) return code >= 0x20 && code < 0x7F;
  if (code < 0xA0) return false;
  return code != 0x2028 && code != 0x2029 && code != 0xFEFF && code != 0xFFFE && code != 0xFFFF;
}

// `text` as one comment line: every character that could end the line,
// make the reader refuse the stream or drive a terminal is escaped
// (\xNN for a byte, \uNNNN for a character). Names, paths and details come
// from the input files.
void AppendCommentText(std::string_view text, std::string* out) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto [code, width] = DecodeUtf8(text, i);
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80 ? CommentSafe(c) : width != 0 && CommentSafe(code)) {
      const std::size_t n = c < 0x80 ? 1 : width;
      out->append(text.substr(i, n));
      i += n;
    } else if (c < 0x80 || width == 0) {
      out->append("\\x");
      AppendHex(c, 2, out);
      ++i;
    } else {
      out->append("\\u");
      AppendHex(static_cast<unsigned>(code), 4, out);
      i += width;
    }
  }
}

// `text` as a comment, coloured by the kind of the layer that `step` names.
void AppendComment(const Explanation& explanation, const Step& step, std::string_view text,
                   const YamlFormatOptions& options, std::string* out) {
  const bool color = options.color && step.layer < explanation.layers.size();
  if (color) out->append(LayerColour(explanation.layers[step.layer].kind));
  out->append("# ");
  AppendCommentText(text, out);
  if (color) out->append(kColourReset);
}

// The byte offsets where each line of `text` starts.
std::vector<std::size_t> LineStarts(std::string_view text) {
  std::vector<std::size_t> starts = {0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
  }
  return starts;
}

std::size_t LineOf(const std::vector<std::size_t>& starts, std::size_t offset) {
  const auto after = std::upper_bound(starts.begin(), starts.end(), offset);
  return static_cast<std::size_t>(after - starts.begin()) - 1;
}

// One object as the writer wrote it, each node with its path and field.
class AnnotatedObject {
 public:
  AnnotatedObject(const Explanation& explanation, const ObjectExplanation& object)
      : explanation_(explanation) {
    yaml::WriteWithSpans(object.object, &text_, &spans_);
    starts_ = LineStarts(text_);
    comments_.assign(starts_.size(), nullptr);
    unsafe_.assign(starts_.size(), false);
    for (const Field& field : object.fields) {
      if (field.present) fields_.try_emplace(field.path, &field);
    }
    Resolve();
  }

  // The text with its comments, each line's after its last byte.
  void AppendTo(const YamlFormatOptions& options, std::string* out) const {
    for (std::size_t line = 0; line < starts_.size(); ++line) {
      const std::size_t begin = starts_[line];
      const std::size_t end = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size() - 1;
      out->append(text_, begin, end - begin);
      if (const Step* step = comments_[line]) {
        out->append("  ");
        AppendComment(explanation_, *step, DescribeStep(explanation_, *step), options, out);
      }
      out->push_back('\n');
    }
  }

 private:
  void Resolve() {
    paths_.resize(spans_.size());
    list_keys_.resize(spans_.size());
    steps_.assign(spans_.size(), nullptr);
    for (std::size_t i = 0; i < spans_.size(); ++i) {
      const WrittenSpan& span = spans_[i];
      if (span.node->is_scalar()) MarkScalarLines(span);
      if (span.parent != WrittenSpan::npos) {
        const doc::Node& parent = *spans_[span.parent].node;
        // The items of a list of scalars are part of the list's value: no
        // path, no field of their own.
        if (parent.is_sequence() && IsLeaf(parent)) continue;
        paths_[i] = span.index == WrittenSpan::npos
                        ? ChildPath(paths_[span.parent], span.key)
                        : ItemPath(paths_[span.parent], parent, span.index, list_keys_[span.parent]);
      }
      if (span.node->is_sequence() && !IsLeaf(*span.node)) list_keys_[i] = ListKeyOf(*span.node);
      const auto found = fields_.find(paths_[i]);
      if (found != fields_.end() && !found->second->chain.empty()) {
        steps_[i] = &found->second->chain.back();
      }
    }
    MarkComplexKeyLines();
    for (std::size_t i = 0; i < spans_.size(); ++i) {
      if (steps_[i] != nullptr && IsLeaf(*spans_[i].node)) Place(ValueLine(i), steps_[i]);
    }
    for (std::size_t i = 1; i < spans_.size(); ++i) {
      if (steps_[i] == nullptr || IsLeaf(*spans_[i].node)) continue;
      const Step* parent = InheritedStep(spans_[i].parent);
      if (parent == nullptr ||
          DescribeStep(explanation_, *parent) != DescribeStep(explanation_, *steps_[i])) {
        Place(OpeningLine(i), steps_[i]);
      }
    }
  }

  // A scalar's lines but the one a comment may end: all but the last of a
  // quoted or folded scalar, the content of a literal block.
  void MarkScalarLines(const WrittenSpan& span) {
    const std::size_t first = LineOf(starts_, span.begin);
    const std::size_t last = LineOf(starts_, span.end - 1);
    if (span.style == WrittenStyle::kLiteral) {
      for (std::size_t line = first + 1; line <= last; ++line) unsafe_[line] = true;
    } else {
      for (std::size_t line = first; line < last; ++line) unsafe_[line] = true;
    }
  }

  // A complex key ("? key", for a key too long for a simple key) may go on
  // over several lines; its first line never gets a comment.
  void MarkComplexKeyLines() {
    const auto at = [&](std::size_t i) { return i < text_.size() ? text_[i] : '\n'; };
    for (std::size_t line = 0; line < starts_.size(); ++line) {
      std::size_t i = starts_[line];
      while (at(i) == ' ' || (at(i) == '-' && at(i + 1) == ' ')) ++i;  // indentation, "- "
      if (at(i) == '?' && (at(i + 1) == ' ' || at(i + 1) == '\n')) unsafe_[line] = true;
    }
  }

  // The line a value ends on: a literal block's header, a scalar's last
  // line, the last item's for a list of scalars.
  std::size_t ValueLine(std::size_t i) const {
    const WrittenSpan& span = spans_[i];
    const doc::Node& node = *span.node;
    // A list of scalars: its items follow it, none with children.
    if (node.is_sequence() && !node.empty()) return ValueLine(i + node.size());
    if (span.style == WrittenStyle::kLiteral || !node.is_scalar()) {
      return LineOf(starts_, span.begin);
    }
    return LineOf(starts_, span.end - 1);
  }

  // The line of the key or "-" that opens a mapping or a list.
  std::size_t OpeningLine(std::size_t i) const {
    std::size_t at = spans_[i].begin;
    while (at > 0 && (text_[at - 1] == ' ' || text_[at - 1] == '\n')) --at;
    return LineOf(starts_, at > 0 ? at - 1 : 0);
  }

  // The step the nearest enclosing node with one shows.
  const Step* InheritedStep(std::size_t i) const {
    for (; i != WrittenSpan::npos; i = spans_[i].parent) {
      if (steps_[i] != nullptr) return steps_[i];
    }
    return nullptr;
  }

  // The first comment a line gets is its comment: values are placed before
  // the mappings and lists that open on their line.
  void Place(std::size_t line, const Step* step) {
    if (!unsafe_[line] && comments_[line] == nullptr) comments_[line] = step;
  }

  const Explanation& explanation_;
  std::string text_;
  std::vector<WrittenSpan> spans_;
  std::vector<std::size_t> starts_;
  std::unordered_map<std::string_view, const Field*> fields_;
  // By span: its field path, its list key (a list of mappings), the step
  // its field ends with (null: no field, or a scalar list's item).
  std::vector<std::string> paths_;
  std::vector<std::string> list_keys_;
  std::vector<const Step*> steps_;
  std::vector<const Step*> comments_;
  std::vector<bool> unsafe_;
};

// The JSON of a value, cut at kShownValue bytes (on a character boundary).
std::string Shown(const doc::Node& value) {
  std::string text = json::Write(value, false);
  if (text.size() <= kShownValue) return text;
  std::size_t cut = kShownValue;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text + "...";
}

// "# deleted: PATH: VALUE (deleted by LAYER WHERE)" for each value a layer
// wrote and a later one deleted, after the object that no longer has it.
void AppendDeleted(const Explanation& explanation, const ObjectExplanation& object,
                   const YamlFormatOptions& options, std::string* out) {
  for (const Field& field : object.fields) {
    if (field.present || field.chain.empty()) continue;
    const Step& deletion = field.chain.back();
    const auto written = std::find_if(field.chain.rbegin(), field.chain.rend(),
                                      [](const Step& step) { return step.action == Action::kSet; });
    std::string text = "deleted: " + field.path;
    if (written != field.chain.rend()) text += ": " + Shown(written->value);
    text += " (" + DescribeStep(explanation, deletion) + ")";
    AppendComment(explanation, deletion, text, options, out);
    out->push_back('\n');
  }
}

}  // namespace

std::string FormatYaml(const Explanation& explanation, const YamlFormatOptions& options) {
  std::string out;
  for (std::size_t i = 0; i < explanation.objects.size(); ++i) {
    if (i > 0) out += "---\n";
    const ObjectExplanation& object = explanation.objects[i];
    AnnotatedObject(explanation, object).AppendTo(options, &out);
    AppendDeleted(explanation, object, options, &out);
  }
  return out;
}

}  // namespace tjr::explain
