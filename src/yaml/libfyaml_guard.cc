#include "yaml/libfyaml_guard.h"

namespace tjr::yaml::input {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// A byte order mark, which libfyaml skips where a stream or document
// starts, so what follows it starts a line (fuzz finding, yaml_determinism:
// a crash shape behind a BOM was not seen).
constexpr std::string_view kBom = "\xEF\xBB\xBF";
bool BomAt(std::string_view text, std::size_t at) { return text.substr(at, kBom.size()) == kBom; }

// Where a quoted scalar that opens at `at` ends on its line (one past the
// closing quote), or `end` when it does not close there.
std::size_t SkipQuoted(std::string_view text, std::size_t at, std::size_t end) {
  const char quote = text[at];
  for (std::size_t i = at + 1; i < end; ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < end && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside a single-quoted scalar
      } else {
        return i + 1;
      }
    }
  }
  return end;
}

// The crash shape on one line [start, end), or nothing. `*key_open`: on
// entry, a `?` on an earlier line still waits for its content (this line
// may start it); on return, whether one waits after this line.
std::optional<ExplicitKeyCrash> CrashOnLine(std::string_view text, std::size_t start, std::size_t end,
                                            bool* key_open) {
  std::size_t at = start;
  while (at < end && (text[at] == ' ' || BomAt(text, at))) at += text[at] == ' ' ? 1 : kBom.size();
  if (at >= end || text[at] == '#') return std::nullopt;  // blank or comment: the key still waits
  // Block indicators at the line's start: `- `, `? `, `: `, in any mix.
  bool explicit_key = *key_open;
  bool sequence = false;  // the key's content is a block sequence
  *key_open = false;
  while (at < end && (text[at] == '-' || text[at] == '?' || text[at] == ':') &&
         (at + 1 == end || IsBlank(text[at + 1]))) {
    if (text[at] == '?') sequence = false;
    if (text[at] == '-' && explicit_key) sequence = true;
    explicit_key = explicit_key || text[at] == '?';
    ++at;
    while (at < end && IsBlank(text[at])) ++at;
  }
  if (!explicit_key) return std::nullopt;
  // `?` with its content on the lines below.
  if (at == end || text[at] == '#') {
    *key_open = true;
    return std::nullopt;
  }
  const std::size_t key = at;
  int flow_depth = 0;
  // A node starts here: at the key, after a flow indicator, after `: `
  // (blanks keep it). Inside a block plain scalar a quote or `[` is text.
  bool token_start = true;
  while (at < end) {
    const char c = text[at];
    if (token_start && (c == '\'' || c == '"')) {
      at = SkipQuoted(text, at, end);
      token_start = false;
      continue;
    }
    if (c == '#' && (at == key || IsBlank(text[at - 1]))) return std::nullopt;  // a comment
    // Flow indicators: anywhere inside a flow collection, only at a
    // token's start outside one (`c[` is a plain scalar).
    const bool opens = (c == '[' || c == '{') && (flow_depth > 0 || token_start);
    const bool closes = (c == ']' || c == '}' || c == ',') && flow_depth > 0;
    if (opens) ++flow_depth;
    if ((c == ']' || c == '}') && flow_depth > 0) --flow_depth;
    if (c == ':' && flow_depth == 0 && at + 1 < end && IsBlank(text[at + 1])) {
      std::size_t value = at + 1;
      bool tab = false;
      for (; value < end && IsBlank(text[value]); ++value) {
        if (text[value] == '\t') tab = true;
      }
      if (tab && value < end) {
        const char first = text[value];
        const bool entry = first == '-' && (value + 1 == end || IsBlank(text[value + 1]));
        if (first == '>' || first == '|' || first == '?' || first == ':' || entry) {
          return ExplicitKeyCrash{key, sequence};
        }
      }
    }
    const bool value_follows = c == ':' && at + 1 < end && IsBlank(text[at + 1]);
    token_start = opens || closes || value_follows || (IsBlank(c) && token_start);
    ++at;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ExplicitKeyCrash> FindExplicitKeyTabCrash(std::string_view text) {
  bool key_open = false;
  for (std::size_t start = 0; start < text.size();) {
    // Line breaks: LF, CRLF, and a lone CR, which YAML reads as one too.
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    if (auto found = CrashOnLine(text, start, end, &key_open)) return found;
    start = end + (text.substr(end, 2) == "\r\n" ? 2 : 1);
  }
  return std::nullopt;
}

std::optional<std::size_t> FindTabIndicatorWithExplicitKey(std::string_view text) {
  auto blank_or_break = [&](std::size_t i) {
    return i >= text.size() || IsBlank(text[i]) || text[i] == '\n' || text[i] == '\r';
  };
  bool explicit_key = false;
  std::optional<std::size_t> tab_indicator;
  for (std::size_t i = 0; i < text.size() && !(explicit_key && tab_indicator); ++i) {
    const char c = text[i];
    if (c == '?' && blank_or_break(i + 1)) {
      // Anywhere a node may start: a line's start, after a blank or a
      // flow indicator. Inside scalars and comments too: wider is safer.
      const char before = i == 0 || (i >= kBom.size() && BomAt(text, i - kBom.size())) ? '\n' : text[i - 1];
      if (before == '\n' || before == '\r' || IsBlank(before) || before == '[' || before == '{' || before == ',') {
        explicit_key = true;
      }
    } else if (c == ':' && !tab_indicator) {
      bool tab = false;
      std::size_t value = i + 1;
      for (; value < text.size() && IsBlank(text[value]); ++value) tab = tab || text[value] == '\t';
      if (tab && value < text.size()) {
        const char first = text[value];
        if (first == '>' || first == '|' || first == '?' || first == ':' || first == '-') tab_indicator = i;
      }
    }
  }
  if (explicit_key && tab_indicator) return tab_indicator;
  return std::nullopt;
}

}  // namespace tjr::yaml::input
