// The libfyaml adapter's second reader: byte spans of nodes instead of
// values, so that a file can be edited in place.

#include "yaml/reader_spans.h"

#include <libfyaml.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "yaml/colon_key_mask.h"
#include "yaml/document_split.h"
#include "yaml/fy_parser.h"
#include "yaml/libfyaml_guard.h"
#include "yaml/quoted_scalar.h"

namespace tjr::yaml {
namespace {


bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Builds the span tree of the first document of one chunk.
class SpanBuilder {
 public:
  SpanBuilder(std::string_view stream, const input::Chunk& chunk, const std::string* file)
      : stream_(stream), chunk_(chunk), file_(file),
        base_(static_cast<std::size_t>(chunk.text.data() - stream.data())) {}

  // Returns false (and sets *root to nothing) for an empty document.
  Result<bool> Parse(SpanNode* root) {
    if (input::FindExplicitKeyTabCrash(chunk_.text)) return Error("invalid map key: a mapping cannot be a key");
    if (input::FindTabIndicatorWithExplicitKey(chunk_.text)) return Error(input::kTabIndicatorWithExplicitKey);
    Result<bool> found = ParseFy(chunk_.text, root);
    if (found.ok() || !multiline_plain_key_) return found;
    // libfyaml's refusal of a ':' line after a multi-line plain scalar
    // (colon_key_mask.h), read again with such colons masked, as the
    // value reader does.
    std::optional<Result<bool>> masked_found;
    const bool read = input::ReadWithColonsMasked(
        chunk_.text, [&](const input::ColonMaskedText& masked, std::vector<std::size_t>* starts) {
          SpanBuilder retry(stream_, chunk_, file_);
          retry.masked_sites_ = &masked.sites;
          masked_found = retry.ParseFy(masked.text, root);
          *starts = std::move(retry.masked_starts_);
          return masked_found->ok();
        });
    return read ? std::move(*masked_found) : std::move(found);
  }

 private:
  // libfyaml reads `fy_text`: the chunk's text or a copy with some colons
  // masked (masked_sites_); the spans are of the chunk's text.
  Result<bool> ParseFy(std::string_view fy_text, SpanNode* root) {
    const char* failure = nullptr;
    input::FyParser fy = input::OpenFyParser(fy_text, &failure);
    if (failure != nullptr) return Error(failure);
    fy_parser* parser_ptr = fy.parser.get();
    bool have_root = false;
    while (fy_event* event = fy_parser_parse(parser_ptr)) {
      const fy_event_type type = event->type;
      Handle(event);
      fy_parser_event_free(parser_ptr, event);
      if (type == FYET_DOCUMENT_END) {
        have_root = done_;
        break;
      }
    }
    if (fy_parser_get_stream_error(parser_ptr)) {
      void* iterator = nullptr;
      while (fy_diag_error* error = fy_diag_errors_iterate(fy.diag.get(), &iterator)) {
        if (error->type != FYET_ERROR) continue;
        multiline_plain_key_ = error->msg != nullptr && error->msg == input::kMultilinePlainKey;
        break;
      }
      return Error("malformed YAML");
    }
    if (!have_root) return false;
    *root = std::move(root_);
    return true;
  }

  Diagnostic Error(const char* message) const {
    return AsInputError(MakeError(Location{file_, chunk_.first_line, 1}, "", message));
  }

  // The node's first byte: its anchor or tag if it has one. libfyaml marks
  // anchors, aliases and quoted scalars one character in.
  void SetStart(SpanNode* node, fy_event* event, fy_token* anchor, fy_token* tag, bool inside) {
    struct Candidate {
      const fy_mark* mark;
      bool inside;
    };
    const Candidate candidates[] = {{fy_event_start_mark(event), inside},
                                    {anchor ? fy_token_start_mark(anchor) : nullptr, true},
                                    {tag ? fy_token_start_mark(tag) : nullptr, false}};
    const Candidate* best = nullptr;
    for (const Candidate& candidate : candidates) {
      if (candidate.mark == nullptr) continue;
      if (best == nullptr || candidate.mark->input_pos - candidate.inside <
                                 best->mark->input_pos - best->inside) {
        best = &candidate;
      }
    }
    if (best == nullptr) return;
    std::size_t pos = best->mark->input_pos;
    std::uint32_t column = static_cast<std::uint32_t>(best->mark->column) + 1;
    if (best->inside && pos > 0) {
      --pos;
      if (column > 1) --column;
    }
    node->begin = base_ + pos;
    node->line = chunk_.first_line + static_cast<std::uint32_t>(best->mark->line);
    node->column = column;
  }

  // One past the last byte of a scalar or alias: the end mark, past a
  // closing quote, without trailing blanks (block scalars keep their line
  // breaks in the mark).
  // A quoted scalar's value is read from its text as goyaml reads it
  // (quoted_scalar.h; libfyaml misreads some and leaks what it formats).
  std::string ScalarValue(fy_token* token, char quote) const {
    const fy_mark* begin = fy_token_start_mark(token);
    const fy_mark* end = fy_token_end_mark(token);
    if (quote != 0 && begin != nullptr && end != nullptr && begin->input_pos <= end->input_pos &&
        end->input_pos <= chunk_.text.size()) {
      std::string refused;
      std::optional<std::string> value = input::DecodeQuotedScalar(
          chunk_.text.substr(begin->input_pos, end->input_pos - begin->input_pos), quote, &refused);
      // ReadStream accepted the text first, so this is not refused.
      return value ? std::move(*value) : std::string();
    }
    size_t length = 0;
    const char* text = fy_token_get_text(token, &length);
    return text == nullptr ? std::string() : std::string(text, length);
  }

  std::size_t ScalarEnd(fy_event* event, char quote) const {
    const fy_mark* mark = fy_event_end_mark(event);
    std::size_t end = base_ + (mark != nullptr ? mark->input_pos : 0);
    if (end > stream_.size()) end = stream_.size();
    if (quote != 0 && end < stream_.size() && stream_[end] == quote &&
        (end == 0 || stream_[end - 1] != quote || end == base_)) {
      ++end;
    }
    return end;
  }

  // libfyaml marks a block scalar at its content; the node starts at its
  // `|` or `>` header on the line before (or on the same line, when empty).
  void StartAtIndicator(SpanNode* node) const {
    std::size_t pos = node->begin;
    while (pos > base_ && IsSpace(stream_[pos - 1])) --pos;
    std::size_t line_start = pos;
    while (line_start > base_ && stream_[line_start - 1] != '\n') --line_start;
    for (std::size_t i = line_start; i < pos; ++i) {
      const char c = stream_[i];
      if (c != '|' && c != '>') continue;
      if (i > line_start && stream_[i - 1] != ' ' && stream_[i - 1] != '\t') continue;
      const char next = i + 1 < stream_.size() ? stream_[i + 1] : '\n';
      if (!IsSpace(next) && next != '+' && next != '-' && next != '#' && (next < '0' || next > '9')) {
        continue;
      }
      node->column = static_cast<std::uint32_t>(i - line_start) + 1;
      std::uint32_t lines = 0;
      for (std::size_t j = i; j < node->begin; ++j) lines += stream_[j] == '\n';
      node->line -= lines;
      node->begin = i;
      return;
    }
  }

  // A plain scalar that starts at a masked ':' gets it back; the site is
  // recorded when the scalar is in block context (colon_key_mask.h).
  void Unmask(fy_event* event, std::string* text) {
    const fy_mark* begin = fy_event_start_mark(event);
    const bool in_flow = !stack_.empty() && stack_.back().flow;
    if (begin == nullptr || text->empty() || in_flow ||
        !std::binary_search(masked_sites_->begin(), masked_sites_->end(), begin->input_pos)) {
      return;
    }
    masked_starts_.push_back(begin->input_pos);
    text->front() = ':';
  }

  std::size_t TrimBack(std::size_t begin, std::size_t end) const {
    while (end > begin && IsSpace(stream_[end - 1])) --end;
    return end;
  }

  void Deliver(SpanNode node) {
    if (stack_.empty()) {
      root_ = std::move(node);
      done_ = true;
      return;
    }
    SpanNode& parent = stack_.back();
    if (parent.kind == SpanNode::Kind::kSequence) {
      parent.items.push_back(std::move(node));
    } else if (expect_key_.back()) {
      parent.entries.push_back(SpanNode::Entry{std::move(node), SpanNode{}});
      expect_key_.back() = false;
    } else {
      parent.entries.back().value = std::move(node);
      expect_key_.back() = true;
    }
  }

  void Handle(fy_event* event) {
    switch (event->type) {
      case FYET_SCALAR: {
        SpanNode node;
        const fy_scalar_style style = fy_token_scalar_style(event->scalar.value);
        const char quote = style == FYSS_SINGLE_QUOTED   ? '\''
                           : style == FYSS_DOUBLE_QUOTED ? '"'
                                                         : 0;
        node.plain = style == FYSS_PLAIN;
        SetStart(&node, event, event->scalar.anchor, event->scalar.tag, quote != 0);
        if (style == FYSS_LITERAL || style == FYSS_FOLDED) StartAtIndicator(&node);
        node.text = ScalarValue(event->scalar.value, quote);
        if (masked_sites_ != nullptr && node.plain) Unmask(event, &node.text);
        node.end = TrimBack(node.begin, ScalarEnd(event, quote));
        if (node.end < node.begin) node.end = node.begin;
        Deliver(std::move(node));
        return;
      }
      case FYET_ALIAS: {
        SpanNode node;
        node.kind = SpanNode::Kind::kAlias;
        SetStart(&node, event, nullptr, nullptr, true);
        node.end = std::max(node.begin, TrimBack(node.begin, ScalarEnd(event, 0)));
        Deliver(std::move(node));
        return;
      }
      case FYET_MAPPING_START:
      case FYET_SEQUENCE_START: {
        const bool mapping = event->type == FYET_MAPPING_START;
        SpanNode node;
        node.kind = mapping ? SpanNode::Kind::kMapping : SpanNode::Kind::kSequence;
        fy_token* start = mapping ? event->mapping_start.mapping_start
                                  : event->sequence_start.sequence_start;
        const fy_token_type token = start != nullptr ? fy_token_get_type(start) : FYTT_NONE;
        node.flow = token == FYTT_FLOW_MAPPING_START || token == FYTT_FLOW_SEQUENCE_START;
        if (mapping) {
          SetStart(&node, event, event->mapping_start.anchor, event->mapping_start.tag, false);
        } else {
          SetStart(&node, event, event->sequence_start.anchor, event->sequence_start.tag, false);
        }
        node.end = node.begin;
        stack_.push_back(std::move(node));
        expect_key_.push_back(true);
        return;
      }
      case FYET_MAPPING_END:
      case FYET_SEQUENCE_END: {
        if (stack_.empty()) return;
        SpanNode node = std::move(stack_.back());
        stack_.pop_back();
        expect_key_.pop_back();
        if (node.flow) {
          const char closer = node.kind == SpanNode::Kind::kMapping ? '}' : ']';
          const fy_mark* mark = fy_event_end_mark(event);
          std::size_t end = base_ + (mark != nullptr ? mark->input_pos : 0);
          if (end > stream_.size()) end = stream_.size();
          // The mark is past the closer; step over it only if it is not.
          if ((end == 0 || stream_[end - 1] != closer) && end < stream_.size() &&
              stream_[end] == closer) {
            ++end;
          }
          node.end = std::max(node.begin, end);
        } else if (node.kind == SpanNode::Kind::kMapping && !node.entries.empty()) {
          node.end = std::max(node.entries.back().value.end, node.entries.back().key.end);
        } else if (!node.items.empty()) {
          node.end = node.items.back().end;
        }
        Deliver(std::move(node));
        return;
      }
      default:
        return;
    }
  }

  std::string_view stream_;
  input::Chunk chunk_;
  const std::string* file_;
  std::size_t base_;
  std::vector<SpanNode> stack_;
  std::vector<bool> expect_key_;
  SpanNode root_;
  bool done_ = false;
  bool multiline_plain_key_ = false;  // the syntax error was kMultilinePlainKey
  const std::vector<std::size_t>* masked_sites_ = nullptr;  // see Unmask
  std::vector<std::size_t> masked_starts_;
};

}  // namespace

const SpanNode::Entry* SpanNode::Find(std::string_view key) const {
  for (const Entry& entry : entries) {
    if (entry.key.kind == Kind::kScalar && entry.key.text == key) return &entry;
  }
  return nullptr;
}

Result<std::vector<SpanNode>> ReadSpans(std::string_view text, std::string_view source_name) {
  const std::string* file = InternSourceName(source_name);
  std::vector<SpanNode> documents;
  if (input::LooksLikeJson(text)) {
    SpanNode root;
    auto found = SpanBuilder(text, input::Chunk{text, 1}, file).Parse(&root);
    if (!found.ok()) return found.take_error();
    if (*found) documents.push_back(std::move(root));
    return documents;
  }
  auto chunks = input::SplitDocuments(text, file);
  if (!chunks.ok()) return chunks.take_error();
  for (const input::Chunk& chunk : *chunks) {
    SpanNode root;
    auto found = SpanBuilder(text, chunk, file).Parse(&root);
    if (!found.ok()) return found.take_error();
    if (*found) documents.push_back(std::move(root));
  }
  return documents;
}

}  // namespace tjr::yaml
