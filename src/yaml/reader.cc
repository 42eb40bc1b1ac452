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
    error.message += input::kMultilinePlainKeyHint;
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

  // A block scalar without an indentation indicator takes its indentation
  // from its first non-empty line, and goyaml (scannerc.go,
  // yaml_parser_scan_block_scalar_breaks) raises it to at least one more
  // than the enclosing block collection's column: a less indented line
  // ends the scalar there, empty, and is read as what follows it (the next
  // key, or an error). libfyaml takes such a line, as deep as the parent's
  // keys, into the scalar (`b: |` then `  c: 1` under a mapping at column
  // 2 reads as b: "c: 1\n" where kubectl reads b: "" and c: 1), and its
  // bytes for such scalars differed from one read to the next (issue 14).
  // Refused rather than read differently.
  // The token's marks span the scalar's lines (from the line after its
  // header). With an indentation indicator the lines are at least as deep
  // as the indicator says, which both count from the same parent, so the
  // check below holds for them as it does for goyaml.
  bool CheckBlockScalar(fy_token* token, bool folded) {
    const fy_mark* begin = fy_token_start_mark(token);
    const fy_mark* end = fy_token_end_mark(token);
    const std::string_view text = chunk_.text;
    if (begin == nullptr || end == nullptr || begin->input_pos >= end->input_pos ||
        end->input_pos > text.size()) {
      return true;
    }
    const std::int64_t parent = block_columns_.empty() ? -1 : block_columns_.back();
    const std::size_t required = static_cast<std::size_t>(std::max<std::int64_t>(parent + 1, 1));
    bool header_alone = false;
    const int increment = IndentationIndicator(text, begin->input_pos, &header_alone);
    // The column of a header on a line of its own (its line's indentation).
    std::size_t header_column = 0;
    std::size_t header_at = 0;
    if (header_alone) {
      const std::size_t newline = begin->input_pos >= 2 ? text.rfind('\n', begin->input_pos - 2) : std::string_view::npos;
      header_at = newline == std::string_view::npos ? 0 : newline + 1;
      for (; text[header_at] == ' '; ++header_at) ++header_column;
    }
    const bool nested = !block_columns_.empty();
    if (!nested && header_column > 0) {
      // A document that is a block scalar whose header is indented on its
      // own line: libfyaml misreads such scalars in many shapes (drops the
      // last line or its break, drops lines it takes for comments, returns
      // bytes it never read, differently from read to read: fuzz finding,
      // yaml_determinism). Of 1,100 generated root block scalars, 85 read
      // here differed from goyaml's values, every one with such a header.
      return Refuse(text, header_at,
                    "malformed YAML: a document that is a block scalar whose '|' or '>' is indented on "
                    "a line of its own is not read here: libfyaml reads it differently from goyaml "
                    "(kubectl); start that line at column 1");
    }
    // The first line with text after the header, when it starts with '#'
    // and is less indented than the header but deep enough for goyaml to
    // read it as the scalar's text. libfyaml takes it for a comment, so the
    // token's marks may end before it: looked for in the text itself.
    std::size_t hash_below_header = std::string_view::npos;
    if (header_alone) {
      for (std::size_t at = begin->input_pos; at < text.size();) {
        std::size_t line_end = text.find('\n', at);
        if (line_end == std::string_view::npos) line_end = text.size();
        std::size_t indent = 0;
        while (at + indent < line_end && text[at + indent] == ' ') ++indent;
        if (at + indent < line_end && text[at + indent] != '\r') {
          if (text[at + indent] == '#' && indent >= required && indent < header_column) hash_below_header = at;
          break;
        }
        at = line_end + 1;
      }
    }
    std::size_t more_indented = std::string_view::npos;  // the first text line deeper than the content
    std::size_t longest_blank = 0;  // spaces of the longest spaces-only line
    std::size_t blank_line = 0;
    bool has_text = false;
    // The content's indentation (the indicator's, else the first text
    // line's) and whether a blank line follows text: libfyaml folds a more
    // indented line after that wrongly (below).
    std::size_t content_indent = increment > 0 ? static_cast<std::size_t>(std::max<std::int64_t>(parent, 0)) +
                                                     static_cast<std::size_t>(increment)
                                               : 0;
    bool blank_after_text = false;
    for (std::size_t at = begin->input_pos; at < end->input_pos;) {
      std::size_t line_end = text.find('\n', at);
      if (line_end == std::string_view::npos) line_end = text.size();
      // The end mark may fall inside the next token's line (after its
      // indentation): that line is not the scalar's.
      if (line_end > end->input_pos) break;
      std::size_t indent = 0;
      while (at + indent < line_end && text[at + indent] == ' ') ++indent;
      const bool blank = at + indent == line_end || (text[at + indent] == '\r' && at + indent + 1 == line_end);
      if (!blank && content_indent == 0) content_indent = indent;
      if (!blank && indent > content_indent && more_indented == std::string_view::npos) more_indented = at;
      if (folded && !blank && blank_after_text && indent > content_indent) {
        // goyaml keeps every line break before a more indented line of a
        // folded scalar ("x", "", " y" reads "x\n\n y\n"); libfyaml drops
        // one and ends the value with a byte it never wrote ("x\n y\n\0").
        return Refuse(text, at,
                      "malformed YAML: a more indented line after an empty line in a folded block "
                      "scalar (>) is not read here: libfyaml folds it differently from goyaml "
                      "(kubectl); use a literal block scalar (|) or remove the empty line");
      }
      blank_after_text = (blank && has_text) || (blank_after_text && blank);
      has_text = has_text || !blank;
      if (blank && indent > longest_blank) {
        longest_blank = indent;
        blank_line = at;
      }
      if (!blank && indent < required) {
        return Refuse(text, at,
                      "malformed YAML: the lines of a block scalar must be indented more than the "
                      "mapping or sequence that holds it (at least " + std::to_string(required) +
                      " spaces here): goyaml (kubectl) ends the scalar before this line, libfyaml "
                      "reads the line into it");
      }
      at = line_end + 1;
    }
    // With an indentation indicator and nothing but spaces-only lines, a
    // line longer than the indentation is text to goyaml (`|2` at column 2
    // then a line of 5 spaces reads as " \n") and libfyaml returns bytes it
    // never wrote ("\0"). Refused rather than read differently.
    const std::size_t indentation = static_cast<std::size_t>(std::max<std::int64_t>(parent, 0)) +
                                    static_cast<std::size_t>(std::max(increment, 0));
    // A block scalar that is the document itself (no enclosing collection)
    // with its header at column 1 reads as goyaml v2 reads it either way:
    // of 3,465 generated root block scalars of up to six lines, the 1,647
    // read here all matched goyaml's values, the same on five reads.
    if (nested && header_alone && more_indented != std::string_view::npos) {
      // `key:` then `|` on a line of its own: libfyaml loses the last line
      // break or bytes of such a scalar when a line is more indented than
      // the content (kubectl: "x\n  b\nc\n", libfyaml: "x\n  b\nc"), and
      // what it returns differed from one read to the next.
      return Refuse(text, more_indented,
                    "malformed YAML: a block scalar whose '|' or '>' stands on a line of its own and "
                    "that holds a more indented line is not read here: libfyaml reads it differently "
                    "from goyaml (kubectl); put the '|' or '>' after the key");
    }
    if (nested && hash_below_header != std::string_view::npos) {
      // `k:`, then `    >` and `  # x`: goyaml reads "# x" as the text,
      // libfyaml as a comment under a header deeper than the line.
      return Refuse(text, hash_below_header,
                    "malformed YAML: a block scalar whose '|' or '>' stands on a line of its own, "
                    "deeper than a line of its text that starts with '#', is not read here: libfyaml "
                    "reads that line as a comment, goyaml (kubectl) as text; put the '|' or '>' after "
                    "the key");
    }
    if (nested && header_alone && has_text && longest_blank > content_indent) {
      // Such a header over a line of spaces longer than the content's
      // indentation: the extra spaces are text to goyaml ("x", then 6
      // spaces under a content indentation of 3, reads "x\n   \n"),
      // libfyaml drops them.
      return Refuse(text, blank_line,
                    "malformed YAML: a block scalar whose '|' or '>' stands on a line of its own and "
                    "that holds a line of spaces longer than its indentation is not read here: "
                    "libfyaml reads it differently from goyaml (kubectl); put the '|' or '>' after "
                    "the key, or remove the trailing spaces");
    }
    if (increment > 0 && !has_text && longest_blank > indentation) {
      return Refuse(text, blank_line,
                    "malformed YAML: a block scalar with an indentation indicator that holds only "
                    "lines of spaces, one longer than its indentation (" + std::to_string(indentation) +
                    "), is not read here: goyaml (kubectl) reads the extra spaces as its text, "
                    "libfyaml does not");
    }
    return true;
  }

  // The indentation indicator (1-9) of the block scalar whose lines start
  // at `lines` (its header is the line before), 0 without one, -1 when the
  // header is not understood. The header is the line's tail after the
  // last blank: `|` or `>` and up to two of [1-9+-], then maybe a comment.
  // `alone`: only blanks before the header on its line.
  static int IndentationIndicator(std::string_view text, std::size_t lines, bool* alone) {
    if (lines == 0 || text[lines - 1] != '\n') return -1;
    const std::size_t newline = lines >= 2 ? text.rfind('\n', lines - 2) : std::string_view::npos;
    const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
    std::string_view header = text.substr(start, lines - 1 - start);
    // A comment starts at a '#' after a blank.
    for (std::size_t i = 1; i < header.size(); ++i) {
      if (header[i] == '#' && (header[i - 1] == ' ' || header[i - 1] == '\t')) {
        header = header.substr(0, i);
        break;
      }
    }
    while (!header.empty() && (header.back() == ' ' || header.back() == '\t' || header.back() == '\r')) {
      header.remove_suffix(1);
    }
    std::size_t at = header.size();
    while (at > 0 && header.size() - at < 2 &&
           ((header[at - 1] >= '1' && header[at - 1] <= '9') || header[at - 1] == '+' || header[at - 1] == '-')) {
      --at;
    }
    if (at == 0 || (header[at - 1] != '|' && header[at - 1] != '>')) return -1;
    if (at >= 2 && header[at - 2] != ' ' && header[at - 2] != '\t') return -1;
    *alone = header.substr(0, at - 1).find_first_not_of(" \t") == std::string_view::npos;
    for (std::size_t i = at; i < header.size(); ++i) {
      if (header[i] >= '1' && header[i] <= '9') return header[i] - '0';
    }
    return 0;
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
  Result<std::vector<Chunk>> chunks = input::SplitDocuments(text, file);
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
  if (Status status = input::CheckCharacters(text, text, file); !status.ok()) {
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
    Status status = EventParser(Chunk{text, 1}, file, limits, &alias_nodes_used, prune, options.libfyaml_only)
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
