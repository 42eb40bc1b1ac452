// The one adapter to libfyaml. Its event parser feeds our TreeBuilder; its
// document API is not used, so the tree and its semantics are ours.

#include "yaml/reader.h"

#include <libfyaml.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gocompat/bom.h"
#include "json/json.h"
#include "json/locator.h"
#include "yaml/block_scalar_check.h"
#include "yaml/block_subset.h"
#include "yaml/colon_key_mask.h"
#include "yaml/document_split.h"
#include "yaml/flow_context.h"
#include "yaml/fy_parser.h"
#include "yaml/libfyaml_guard.h"
#include "yaml/quoted_scalar.h"
#include "yaml/tree_builder.h"

namespace tjr::yaml {
namespace {

using input::Chunk;
using input::NodeStart;
using input::ScalarInput;
using input::TreeBuilder;


std::string_view TokenText(fy_token* token) {
  if (token == nullptr) return {};
  size_t length = 0;
  const char* text = fy_token_get_text(token, &length);
  return text == nullptr ? std::string_view() : std::string_view(text, length);
}

// Runs libfyaml over some text (a whole stream, or one kubectl chunk) and
// builds each document it finds.
class EventParser {
 public:
  EventParser(const Chunk& text, const std::string* file, const input::BuilderLimits& limits,
              std::size_t* alias_nodes_used, const ReadOptions* prune = nullptr, bool libfyaml_only = false)
      : chunk_(text),
        file_(file),
        limits_(limits),
        alias_nodes_used_(alias_nodes_used),
        prune_(prune),
        libfyaml_only_(libfyaml_only) {}

  // Appends the non-null documents to `out`. With `first_only`, stops after
  // the first document, as goyaml's Unmarshal does with a kubectl chunk.
  Status Parse(bool first_only, std::vector<doc::Node>* out) {
    if (!libfyaml_only_) {
      // Most manifests keep to a block subset read without libfyaml; for
      // the rest (and for every error) libfyaml reads the text below.
      TreeBuilder builder(limits_, alias_nodes_used_);
      builder.Reset();
      // Pruned only here: anything the pruned read refuses is read in
      // full below.
      if (prune_ != nullptr) builder.SetPrune(prune_->prune_key, prune_->prune_keep);
      doc::Node root;
      if (input::BuildBlockSubset(chunk_.text, file_, chunk_.first_line, builder, &root)) {
        out->push_back(std::move(root));
        return Ok();
      }
    }
    if (auto key = input::FindExplicitKeyTabCrash(chunk_.text)) {
      return RefusedAt(chunk_.text, key->at,
                       std::string("invalid map key: a ") + (key->sequence ? "sequence" : "mapping") +
                           " cannot be a key");
    }
    if (auto colon = input::FindTabIndicatorWithExplicitKey(chunk_.text)) {
      return RefusedAt(chunk_.text, *colon, input::kTabIndicatorWithExplicitKey);
    }
    const std::size_t documents_before = out->size();
    const std::size_t alias_nodes_before = *alias_nodes_used_;
    Status status = ParseFy(chunk_.text, first_only, out);
    if (status.ok() || !multiline_plain_key_) return status;
    // libfyaml's refusal of a ':' line after a multi-line plain scalar
    // (colon_key_mask.h): read again with such colons masked.
    std::optional<Status> masked_status;
    const bool read = input::ReadWithColonsMasked(
        chunk_.text, [&](const input::ColonMaskedText& masked, std::vector<std::size_t>* starts) {
          out->resize(documents_before);
          *alias_nodes_used_ = alias_nodes_before;
          EventParser retry(chunk_, file_, limits_, alias_nodes_used_, prune_, /*libfyaml_only=*/true);
          retry.masked_sites_ = &masked.sites;
          masked_status = retry.ParseFy(masked.text, first_only, out);
          *starts = std::move(retry.masked_starts_);
          return masked_status->ok();
        });
    if (read) return std::move(*masked_status);
    out->resize(documents_before);
    *alias_nodes_used_ = alias_nodes_before;
    // A refusal that is not libfyaml's is the answer; else the original one.
    if (masked_status && !masked_status->ok() && !masked_status->error().message.ends_with(input::kMultilinePlainKey)) {
      return std::move(*masked_status);
    }
    Diagnostic error = status.take_error();
    if (syntax_error_line_ != 0 &&
        input::RefusalIsAColonLine(chunk_.text,
                                   input::OffsetOfMark(chunk_.text, syntax_error_line_, syntax_error_column_))) {
      error.message += input::kMultilinePlainKeyHint;
    }
    return error;
  }

 private:
  // libfyaml reads `fy_text`: the chunk's text, or a copy of it with some
  // colons masked (masked_sites_); everything else reads the chunk's text.
  Status ParseFy(std::string_view fy_text, bool first_only, std::vector<doc::Node>* out) {
    const char* failure = nullptr;
    input::FyParser fy = input::OpenFyParser(fy_text, &failure);
    if (failure != nullptr) return Internal(failure);
    fy_diag* diag_ptr = fy.diag.get();
    fy_parser* parser_ptr = fy.parser.get();

    TreeBuilder builder(limits_, alias_nodes_used_);
    while (fy_event* event = fy_parser_parse(parser_ptr)) {
      const fy_event_type type = event->type;
      bool ok = true;
      if (type == FYET_DOCUMENT_START) {
        builder.Reset();
      } else {
        ok = Handle(event, builder);
      }
      fy_parser_event_free(parser_ptr, event);
      if (!ok) return parse_error_ ? std::move(*parse_error_) : builder.TakeError();
      if (type == FYET_DOCUMENT_END) {
        doc::Node root = builder.TakeRoot();
        // Empty documents and `null` ones are skipped, as kubectl does.
        if (!root.is_null()) out->push_back(std::move(root));
        if (first_only) return CheckYaml11Breaks();
      }
    }
    if (fy_parser_get_stream_error(parser_ptr)) return SyntaxError(diag_ptr);
    return CheckYaml11Breaks();
  }

  // NEL, LS and PS are line breaks to goyaml (YAML 1.1) and text to
  // libfyaml (YAML 1.2), so outside quotes the two read a different tree:
  // kubectl ends `b: x<LS>y:` at the LS and reads `y` as a key of the
  // parent. Inside quotes both fold them alike (quoted_scalar.h). Such a
  // break anywhere else is refused rather than read differently.
  Status CheckYaml11Breaks() const {
    const std::string_view text = chunk_.text;
    std::size_t range = 0;
    for (std::size_t at = 0; at + 1 < text.size(); ++at) {
      const bool nel = text[at] == '\xC2' && text[at + 1] == '\x85';
      const bool ls_ps = text[at] == '\xE2' && at + 2 < text.size() && text[at + 1] == '\x80' &&
                         (text[at + 2] == '\xA8' || text[at + 2] == '\xA9');
      if (!nel && !ls_ps) continue;
      while (range < quoted_ranges_.size() && quoted_ranges_[range].second <= at) ++range;
      if (range < quoted_ranges_.size() && quoted_ranges_[range].first <= at) continue;
      const char* name = nel ? "U+0085 (next line)" : text[at + 2] == '\xA8' ? "U+2028 (line separator)"
                                                                           : "U+2029 (paragraph separator)";
      return RefusedAt(text, at,
                       std::string("malformed YAML: ") + name +
                           " outside quotes is a line break to goyaml (YAML 1.1), which kubectl uses, and "
                           "text to YAML 1.2 parsers; quote the value and write it as an escape (\\N, \\L, \\P)");
    }
    return Ok();
  }

  // An input error at byte `at` of the chunk's `text`, with the line
  // numbered in the whole stream.
  Diagnostic RefusedAt(std::string_view text, std::size_t at, std::string message) const {
    json::Locator locator(text, file_);
    Location where = locator.At(at);
    where.line += chunk_.first_line - 1;
    return AsInputError(MakeError(where, "", std::move(message)));
  }

  // RefusedAt, kept as the parse's error; false, to return from the check.
  bool Refuse(std::string_view text, std::size_t at, std::string message) {
    parse_error_ = RefusedAt(text, at, std::move(message));
    return false;
  }

  Diagnostic Internal(const char* message) const {
    return AsInputError(MakeError(Location{file_, chunk_.first_line, 1}, "", message));
  }

  Diagnostic SyntaxError(fy_diag* diag) {
    std::string message = "malformed YAML";
    Location at{file_, chunk_.first_line, 1};
    void* iterator = nullptr;
    while (fy_diag_error* error = fy_diag_errors_iterate(diag, &iterator)) {
      if (error->type != FYET_ERROR) continue;
      if (error->msg != nullptr) {
        message += std::string(": ") + error->msg;
        multiline_plain_key_ = error->msg == input::kMultilinePlainKey;
      }
      if (error->line > 0) {
        syntax_error_line_ = static_cast<std::size_t>(error->line);
        syntax_error_column_ = static_cast<std::size_t>(error->column > 0 ? error->column : 1);
        at.line = chunk_.first_line + static_cast<std::uint32_t>(error->line) - 1;
        at.column = static_cast<std::uint32_t>(error->column > 0 ? error->column : 1);
      }
      break;
    }
    return AsInputError(MakeError(at, "", std::move(message)));
  }

  Location At(const fy_mark& mark) const {
    return Location{file_, chunk_.first_line + static_cast<std::uint32_t>(mark.line),
                    static_cast<std::uint32_t>(mark.column) + 1};
  }

  // Where a node starts: its anchor or tag if it has one (as libyaml
  // reports it), else its own token. libfyaml marks anchors, aliases and
  // quoted scalars one character in, past the '&', '*' or quote.
  NodeStart Start(fy_event* event, fy_token* anchor, fy_token* tag, bool marked_inside) {
    struct Candidate {
      const fy_mark* mark;
      bool inside;
    };
    const Candidate candidates[] = {{fy_event_start_mark(event), marked_inside},
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
    if (best != nullptr) {
      last_ = At(*best->mark);
      last_offset_ = best->mark->input_pos;
      if (best->inside && last_.column > 1) {
        --last_.column;
        --last_offset_;
      }
    }
    return NodeStart{last_, TokenText(anchor)};
  }

  // A plain scalar of one line of printable ASCII is its own text: the
  // token marks bound exactly the value, and reading it there spares
  // libfyaml formatting a copy of nearly every scalar of a manifest. A
  // quoted scalar's value is read from the text between its quotes as
  // goyaml reads it (quoted_scalar.h: libfyaml gets '' runs and escaped
  // line breaks wrong, and leaks what it formats); block scalars are left
  // to libfyaml. Nothing when the quoted text is refused (parse_error_ set).
  std::optional<std::string_view> ScalarText(fy_token* token, fy_scalar_style style) {
    const bool quoted = style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED;
    if (style == FYSS_LITERAL || style == FYSS_FOLDED) return BlockText(token);
    if (style != FYSS_PLAIN && !quoted) return TokenText(token);
    const fy_mark* begin = fy_token_start_mark(token);
    const fy_mark* end = fy_token_end_mark(token);
    if (begin == nullptr || end == nullptr || begin->input_pos > end->input_pos ||
        end->input_pos > chunk_.text.size()) {
      return TokenText(token);
    }
    const std::string_view raw = chunk_.text.substr(begin->input_pos, end->input_pos - begin->input_pos);
    if (quoted) {
      // Most quoted values are one line of printable ASCII with nothing to
      // unescape: their text is their value, read in place.
      const char escape = style == FYSS_SINGLE_QUOTED ? '\'' : '\\';
      bool verbatim = true;
      for (char c : raw) {
        if ((c < 0x20 && c != '\t') || c > 0x7e || c == escape) {
          verbatim = false;
          break;
        }
      }
      if (verbatim) return raw;
      std::string refused;
      std::optional<std::string> value =
          input::DecodeQuotedScalar(raw, style == FYSS_SINGLE_QUOTED ? '\'' : '"', &refused);
      if (!value) {
        parse_error_ = AsInputError(MakeError(At(*begin), "", "malformed YAML: " + refused));
        return std::nullopt;
      }
      quoted_value_ = std::move(*value);
      // The quotes included: a break right after one is still inside.
      quoted_ranges_.emplace_back(begin->input_pos, end->input_pos);
      return std::string_view(quoted_value_);
    }
    for (char c : raw) {
      if ((c < 0x20 && c != '\t') || c > 0x7e) return TokenText(token);
    }
    return raw;
  }

  // A block scalar's value as libfyaml returns it, unless it holds a NUL:
  // the input has none (CheckCharacters refuses them) and block scalars
  // have no escapes, so a NUL is a byte libfyaml never read. It returns
  // one for a block scalar with no line after its header at the end of
  // the stream (`k: >+`), which goyaml reads as "": that is what it gets
  // here; any other is refused.
  std::optional<std::string_view> BlockText(fy_token* token) {
    const std::string_view value = TokenText(token);
    if (value.find('\0') == std::string_view::npos) return value;
    const fy_mark* begin = fy_token_start_mark(token);
    const fy_mark* end = fy_token_end_mark(token);
    if (begin != nullptr && end != nullptr && begin->input_pos >= end->input_pos) return std::string_view();
    parse_error_ = AsInputError(MakeError(begin != nullptr ? At(*begin) : last_, "",
                                          "malformed YAML: a block scalar libfyaml reads with a byte "
                                          "that is not in the input (NUL); goyaml (kubectl) reads it "
                                          "differently"));
    return std::nullopt;
  }

  // flow_context.h: a tag that goyaml reads on past where libfyaml ends it,
  // or refuses.
  bool CheckTag(fy_token* tag) {
    if (tag == nullptr) return true;
    const fy_mark* end = fy_token_end_mark(tag);
    if (end == nullptr) return true;
    const std::optional<input::FlowPlainRefusal> refusal = input::CheckTagEnd(chunk_.text, end->input_pos);
    return !refusal || Refuse(chunk_.text, refusal->at, "malformed YAML: " + refusal->message);
  }

  // flow_context.h: plain scalars in flow collections that goyaml reads
  // differently.
  bool CheckFlowPlain(fy_token* token) {
    const fy_mark* begin = fy_token_start_mark(token);
    const fy_mark* end = fy_token_end_mark(token);
    if (begin == nullptr || end == nullptr) return true;
    const std::optional<input::FlowPlainRefusal> refusal =
        input::CheckFlowPlainScalar(chunk_.text, begin->input_pos, end->input_pos, flow_.back());
    return !refusal || Refuse(chunk_.text, refusal->at, "malformed YAML: " + refusal->message);
  }

  // A plain scalar that starts at a masked ':' (colon_key_mask.h) gets it
  // back, and the site is recorded as a scalar's start when the scalar is
  // in block context. Single-line ASCII scalars are read from the chunk's
  // own text, where the ':' still is.
  std::string_view Unmask(fy_event* event, std::string_view text) {
    const fy_mark* begin = fy_event_start_mark(event);
    if (begin == nullptr || text.empty() || (!flow_.empty() && flow_.back() != 0) ||
        !std::binary_search(masked_sites_->begin(), masked_sites_->end(), begin->input_pos)) {
      return text;
    }
    masked_starts_.push_back(begin->input_pos);
    if (text.front() == ':') return text;
    unmasked_value_.assign(text);
    unmasked_value_.front() = ':';
    return unmasked_value_;
  }

  // libyaml stops treating text as an implicit key after 1024 characters
  // (goyaml: "could not find expected ':'"); libfyaml has no such limit.
  bool CheckKeyLength(fy_event* event, bool quoted) {
    constexpr std::size_t kMaxSimpleKey = 1024;
    const fy_mark* end = fy_event_end_mark(event);
    const std::string_view text = chunk_.text;
    if (end == nullptr || end->input_pos > text.size() || last_offset_ > end->input_pos) return true;
    if (end->input_pos - last_offset_ <= kMaxSimpleKey) return true;  // bytes >= characters
    std::size_t colon = end->input_pos + (quoted ? 1 : 0);
    while (colon < text.size() && (text[colon] == ' ' || text[colon] == '\t')) ++colon;
    if (colon >= text.size() || text[colon] != ':') return true;
    // An explicit key ("? key") has no limit.
    std::size_t before = last_offset_;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
    if (before > 0 && text[before - 1] == '?') return true;
    std::size_t characters = 0;
    for (std::size_t i = last_offset_; i < colon; ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++characters;
    }
    if (characters <= kMaxSimpleKey) return true;
    parse_error_ = AsInputError(MakeError(
        last_, "", "malformed YAML: could not find expected ':' (an implicit key may not exceed " +
                       std::to_string(kMaxSimpleKey) + " characters)"));
    return false;
  }

  // goyaml's scanner allows only letters, digits, '-' and '_' in anchor
  // and alias names and ends the name at anything else ("&a:" is the
  // anchor "a" and a ':'); YAML 1.2 names go on to the next blank. Names
  // the two read differently are refused rather than read differently.
  bool CheckAnchorName(std::string_view name, const char* what) {
    for (char c : name) {
      const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      c == '-' || c == '_';
      if (!ok) {
        parse_error_ = AsInputError(MakeError(
            last_, "", std::string("malformed YAML: ") + what + " name '" + std::string(name) +
                           "' may only contain letters, digits, '-' and '_' for goyaml"));
        return false;
      }
    }
    return true;
  }

  // YAML 1.2's "\/" escape is unknown to goyaml, so kubectl rejects it.
  bool CheckEscapes(fy_event* event) {
    const fy_mark* begin = fy_event_start_mark(event);
    const fy_mark* end = fy_event_end_mark(event);
    if (begin == nullptr || end == nullptr || end->input_pos > chunk_.text.size() ||
        begin->input_pos > end->input_pos) {
      return true;
    }
    const std::string_view raw =
        chunk_.text.substr(begin->input_pos, end->input_pos - begin->input_pos);
    const std::size_t bad = input::FindEscapeUnknownToGoyaml(raw);
    if (bad == std::string_view::npos) return true;
    json::Locator locator(chunk_.text, file_);
    Location at = locator.At(begin->input_pos + bad);
    at.line += chunk_.first_line - 1;
    parse_error_ = AsInputError(
        MakeError(at, "", "malformed YAML: found unknown escape character"));
    return false;
  }

  // The lines of a block scalar as goyaml reads them, or refused where
  // libfyaml would read them differently (block_scalar_check.h).
  bool CheckBlockScalar(fy_token* token, bool folded) {
    const fy_mark* begin = fy_token_start_mark(token);
    const fy_mark* end = fy_token_end_mark(token);
    const std::string_view text = chunk_.text;
    if (begin == nullptr || end == nullptr || begin->input_pos >= end->input_pos ||
        end->input_pos > text.size()) {
      return true;
    }
    std::optional<input::BlockScalarRefusal> refusal = input::CheckBlockScalar(
        text, begin->input_pos, end->input_pos, block_columns_.empty() ? -1 : block_columns_.back(), folded);
    return !refusal || Refuse(text, refusal->at, std::move(refusal->message));
  }

  // The column (0-based) of each open block collection, outermost first:
  // goyaml's parser.indent for what they hold. An indentless sequence
  // ("key:" then "- item" at the key's column) has its mapping's column,
  // as goyaml keeps the mapping's indent for it.
  void OpenCollection(fy_event* event, fy_token* start) {
    const fy_token_type token = start != nullptr ? fy_token_get_type(start) : FYTT_NONE;
    flow_.push_back(token == FYTT_FLOW_MAPPING_START ? '}' : token == FYTT_FLOW_SEQUENCE_START ? ']' : 0);
    const fy_mark* mark = fy_event_start_mark(event);
    block_columns_.push_back(mark != nullptr ? mark->column
                                             : (block_columns_.empty() ? -1 : block_columns_.back()));
  }

  bool Handle(fy_event* event, TreeBuilder& builder) {
    switch (event->type) {
      case FYET_SCALAR: {
        const auto& data = event->scalar;
        const fy_scalar_style style = fy_token_scalar_style(data.value);
        const bool quoted = style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED;
        const NodeStart start = Start(event, data.anchor, data.tag, quoted);
        if (!CheckAnchorName(start.anchor, "anchor") || !CheckTag(data.tag)) return false;
        if (style == FYSS_DOUBLE_QUOTED && !CheckEscapes(event)) return false;
        if ((style == FYSS_LITERAL || style == FYSS_FOLDED) && !CheckBlockScalar(data.value, style == FYSS_FOLDED)) {
          return false;
        }
        if (builder.expecting_key() && !CheckKeyLength(event, quoted)) return false;
        if (style == FYSS_PLAIN && !flow_.empty() && flow_.back() != 0 && !CheckFlowPlain(data.value)) return false;
        std::optional<std::string_view> text = ScalarText(data.value, style);
        if (!text) return false;
        if (masked_sites_ != nullptr && style == FYSS_PLAIN) text = Unmask(event, *text);
        ScalarInput scalar{*text, TokenText(data.tag), style == FYSS_PLAIN};
        return builder.Scalar(scalar, start);
      }
      case FYET_MAPPING_START: {
        const auto& data = event->mapping_start;
        const NodeStart start = Start(event, data.anchor, data.tag, false);
        if (!CheckAnchorName(start.anchor, "anchor") || !CheckTag(data.tag)) return false;
        OpenCollection(event, data.mapping_start);
        return builder.StartMapping(start);
      }
      case FYET_SEQUENCE_START: {
        const auto& data = event->sequence_start;
        const NodeStart start = Start(event, data.anchor, data.tag, false);
        if (!CheckAnchorName(start.anchor, "anchor") || !CheckTag(data.tag)) return false;
        OpenCollection(event, data.sequence_start);
        return builder.StartSequence(start);
      }
      case FYET_MAPPING_END:
      case FYET_SEQUENCE_END:
        if (!block_columns_.empty()) block_columns_.pop_back();
        if (!flow_.empty()) flow_.pop_back();
        return builder.End();
      case FYET_ALIAS: {
        const NodeStart start = Start(event, nullptr, nullptr, true);
        if (!CheckAnchorName(TokenText(event->alias.anchor), "alias")) return false;
        if (builder.expecting_key() && !CheckKeyLength(event, false)) return false;
        return builder.Alias(TokenText(event->alias.anchor), start.at);
      }
      default:
        return true;
    }
  }

  const Chunk chunk_;
  const std::string* file_;
  input::BuilderLimits limits_;
  std::size_t* alias_nodes_used_;
  const ReadOptions* prune_;
  std::optional<Diagnostic> parse_error_;
  std::string quoted_value_;  // the last quoted scalar's value, until the next
  bool libfyaml_only_ = false;
  // [begin, end) of every quoted scalar's text, in document order.
  std::vector<std::pair<std::size_t, std::size_t>> quoted_ranges_;
  Location last_{file_, chunk_.first_line, 1};
  std::size_t last_offset_ = 0;  // of last_ in the parsed text
  std::vector<std::int64_t> block_columns_;  // see OpenCollection
  std::vector<char> flow_;  // of each open collection: its closer, ']' or '}', or 0 for a block one
  bool multiline_plain_key_ = false;  // the syntax error was kMultilinePlainKey
  // Where in the chunk libfyaml's syntax error is (both from 1; line 0
  // when it did not say).
  std::size_t syntax_error_line_ = 0;
  std::size_t syntax_error_column_ = 1;
  const std::vector<std::size_t>* masked_sites_ = nullptr;  // see Unmask
  std::vector<std::size_t> masked_starts_;
  std::string unmasked_value_;
};

// Every chunk through the block subset, or false (and nothing in `out`).
bool ReadBlockSubsetChunks(const std::vector<Chunk>& chunks, const std::string* file,
                           const input::BuilderLimits& limits, std::size_t* alias_nodes_used,
                           std::vector<doc::Node>* out) {
  std::vector<doc::Node> documents;
  documents.reserve(chunks.size());
  for (const Chunk& chunk : chunks) {
    input::TreeBuilder builder(limits, alias_nodes_used);
    builder.Reset();
    doc::Node root;
    if (!input::BuildBlockSubset(chunk.text, file, chunk.first_line, builder, &root)) return false;
    documents.push_back(std::move(root));
  }
  *out = std::move(documents);
  return true;
}

}  // namespace

bool HasLoneCarriageReturn(std::string_view text) {
  for (std::size_t at = text.find('\r'); at != std::string_view::npos; at = text.find('\r', at + 1)) {
    if (at + 1 == text.size() || text[at + 1] != '\n') return true;
  }
  return false;
}

std::string LoneCarriageReturnsAsLineFeeds(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\r' && (i + 1 == out.size() || out[i + 1] != '\n')) out[i] = '\n';
  }
  return out;
}

Result<std::vector<doc::Node>> ReadStream(std::string_view text, std::string_view source_name,
                                          const ReadOptions& options) {
  // A UTF-16 file with its byte order mark reads as kubectl reads it.
  const std::optional<std::string> utf8 = gocompat::DecodeUtf16WithBom(text);
  if (utf8) text = *utf8;
  std::vector<doc::Node> documents;
  if (input::LooksLikeJson(text)) {
    json::ReadOptions json_options;
    json_options.max_document_bytes = options.max_document_bytes;
    json_options.max_depth = options.max_depth;
    json_options.first_line = options.first_line;
    Result<std::vector<doc::Node>> values = json::ReadStream(text, source_name, json_options);
    if (!values.ok()) return values;
    // kubectl's stream visitor skips `null` documents.
    for (doc::Node& value : *values) {
      if (!value.is_null()) documents.push_back(std::move(value));
    }
    return documents;
  }
  // A UTF-8 byte order mark: goyaml and libfyaml skip it. Dropped here so
  // that the checks below, which look for shapes at a line's start, see
  // the first line as the parser does (behind the mark, a libfyaml crash
  // shape and a misread block scalar went unseen: yaml_determinism
  // finding). Columns on the first line then count from after the mark.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  // kubectl reads YAML a line at a time and ends every line, the last one
  // too, with a line break (apimachinery util/yaml LineReader.Read). So a
  // block scalar on a file's last, unterminated line keeps a final "\n"
  // under clip and keep chomping, and libfyaml, given the text without it,
  // dropped that break or returned a NUL for lines of spaces.
  // goyaml takes a lone CR (an old Mac line end) for a line break as it
  // takes "\n", in every context. libfyaml's checks here are line-based on
  // "\n", and its block scalars read lines that end in a lone CR with bytes
  // that are not in the input, different from read to read (fuzz finding,
  // yaml_determinism). Read with such CRs as "\n": the offsets stay, the
  // line numbers are goyaml's.
  std::string lone_cr_as_lf;
  if (HasLoneCarriageReturn(text)) {
    lone_cr_as_lf = LoneCarriageReturnsAsLineFeeds(text);
    text = lone_cr_as_lf;
  }
  std::string with_final_break;
  if (!text.empty() && text.back() != '\n') {
    with_final_break.reserve(text.size() + 1);
    with_final_break.append(text).push_back('\n');
    text = with_final_break;
  }
  const std::string* file = InternSourceName(source_name);
  Result<std::vector<Chunk>> chunks = input::SplitDocuments(text, file, options.first_line);
  if (!chunks.ok()) return chunks.take_error();
  input::BuilderLimits limits;
  limits.max_depth = options.max_depth;
  limits.max_alias_expanded_nodes = options.max_alias_expanded_nodes;
  limits.max_document_nodes = options.max_document_nodes;
  for (const Chunk& chunk : *chunks) {
    if (chunk.text.size() > options.max_document_bytes) {
      return AsInputError(MakeError(Location{file, chunk.first_line, 1}, "",
                                    "YAML document of " + std::to_string(chunk.text.size()) +
                                        " bytes exceeds the limit of " +
                                        std::to_string(options.max_document_bytes) + " bytes"));
    }
  }
  if (Status status = input::CheckCharacters(text, text, file, options.first_line); !status.ok()) {
    return status.take_error();
  }
  std::size_t alias_nodes_used = 0;
  if (input::SameDocumentsAsYaml(text)) {
    // A stream of block-style documents (kubectl's output, say) is read a
    // document at a time without libfyaml when every one of them keeps to
    // the block subset; the "---" lines the subset refuses are not in the
    // chunks. Otherwise libfyaml reads the whole stream, as below.
    if (chunks->size() > 1 && !options.libfyaml_only &&
        ReadBlockSubsetChunks(*chunks, file, limits, &alias_nodes_used, &documents)) {
      return documents;
    }
    // One parser for the whole stream: libfyaml's documents are kubectl's.
    const ReadOptions* prune = chunks->size() == 1 && !options.prune_key.empty() ? &options : nullptr;
    Status status = EventParser(Chunk{text, options.first_line}, file, limits, &alias_nodes_used, prune, options.libfyaml_only)
                        .Parse(/*first_only=*/false, &documents);
    if (!status.ok()) return status.take_error();
    return documents;
  }
  for (const Chunk& chunk : *chunks) {
    Status status = EventParser(chunk, file, limits, &alias_nodes_used, nullptr, options.libfyaml_only)
                        .Parse(/*first_only=*/true, &documents);
    if (!status.ok()) return status.take_error();
  }
  return documents;
}

}  // namespace tjr::yaml
