#include "source/unrendered_template.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tjr::source {
namespace {

bool IsNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The keys whose values are shell lines and program arguments: `$VAR` and
// `${VAR}` there are the shell's (or the program's), and Kubernetes'
// `$(VAR)` expansion applies there (k8s.io/kubernetes
// pkg/kubelet/container/helpers.go, ExpandContainerCommandAndArgs); Flyte
// fills its own `{{.input}}` there (flyteplugins
// pluginmachinery/core/template/template.go, as flyte/template_render.h).
bool IsShellKey(std::string_view key) { return key == "command" || key == "args"; }

// The end of a `${NAME}` or `${NAME<op>word}` (envsubst's and Flux's forms:
// `:-`, `-`, `:=`, `=`, `:+`, `+`, `:?`, `?`) that starts at `at` (the '$'),
// or 0 when none does.
std::size_t BracedPlaceholderEnd(std::string_view text, std::size_t at) {
  if (at + 2 >= text.size() || text[at + 1] != '{' || !IsNameStart(text[at + 2])) return 0;
  std::size_t end = at + 3;
  while (end < text.size() && IsNameChar(text[end])) ++end;
  if (end >= text.size()) return 0;
  if (text[end] == '}') return end + 1;
  // Terraform's templatefile: a function call or an attribute
  // (`${indent(4, yamlencode(labels))}`, `${var.image}`), closed by the
  // `}` outside its parentheses and quotes.
  if (text[end] == '(' || text[end] == '.' || text[end] == '[') {
    int depth = 0;
    char quote = 0;
    for (std::size_t i = end; i < text.size(); ++i) {
      const char c = text[i];
      if (quote != 0) {
        if (c == '\\') {
          ++i;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '"') {
        quote = c;
      } else if (c == '(' || c == '[') {
        ++depth;
      } else if (c == ')' || c == ']') {
        if (--depth < 0) return 0;
      } else if (c == '}' && depth == 0) {
        return i + 1;
      }
    }
    return 0;
  }
  if (std::strchr(":-=+?", text[end]) == nullptr) return 0;
  const std::size_t close = text.find('}', end);
  return close == std::string_view::npos ? 0 : close + 1;
}

// A value with one layer of quotes taken off (escapes are left: a
// placeholder holds none).
std::string_view Unquoted(std::string_view value) {
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
    return value.substr(1, value.size() - 2);
  }
  return value;
}

// `value` with a trailing comment (a '#' after a blank, outside quotes) cut.
std::string_view WithoutComment(std::string_view value) {
  char quote = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      if (i == 0 || IsBlank(value[i - 1]) || value[i - 1] == '[' || value[i - 1] == ',') quote = c;
    } else if (c == '#' && i > 0 && IsBlank(value[i - 1])) {
      value = value.substr(0, i);
      break;
    }
  }
  while (!value.empty() && IsBlank(value.back())) value.remove_suffix(1);
  return value;
}

struct Found {
  std::size_t at = 0;  // in the value
  std::string_view text;
};

// The first placeholder in a value (or a line without a key).
std::optional<Found> PlaceholderIn(std::string_view value) {
  for (std::size_t at = value.find("{{"); at != std::string_view::npos; at = value.find("{{", at + 2)) {
    if (at > 0 && value[at - 1] == '$') continue;  // a GitHub expression, ${{ ... }}
    const std::size_t close = value.find("}}", at + 2);
    if (close == std::string_view::npos) break;
    return Found{at, value.substr(at, close + 2 - at)};
  }
  std::string_view bare = value;
  if (bare.ends_with(',')) bare.remove_suffix(1);  // a JSON member
  bare = Unquoted(bare);
  if (bare.size() >= 2 && bare[0] == '$' && IsNameStart(bare[1])) {
    std::size_t end = 2;
    while (end < bare.size() && IsNameChar(bare[end])) ++end;
    if (end == bare.size()) return Found{static_cast<std::size_t>(bare.data() - value.data()), bare};
  }
  // Inside a longer value only a value of one word counts (an image
  // `repo/x:${TAG}`, a name `job-${ID}`): a value with blanks or escaped
  // line breaks is text, a script in a string, whose `${var}` are its own.
  const bool one_word = bare.find_first_of(" \t") == std::string_view::npos && bare.find("\\n") == std::string_view::npos;
  for (std::size_t at = value.find("${"); at != std::string_view::npos; at = value.find("${", at + 2)) {
    if (at > 0 && value[at - 1] == '$') continue;  // `$${VAR}`: Flux's escape for a literal
    const std::size_t end = BracedPlaceholderEnd(value, at);
    if (end != 0 && (one_word || (at == 0 && end == value.size()))) return Found{at, value.substr(at, end - at)};
  }
  return std::nullopt;
}

// The length of a quoted scalar that starts `text` (its quotes included),
// or 0 when it does not close on this line.
std::size_t QuotedLength(std::string_view text) {
  const char quote = text.front();
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;
      } else {
        return i + 1;
      }
    }
  }
  return 0;
}

// Where the ':' that ends a line's key is, or npos for a line without one.
std::size_t KeyEnd(std::string_view rest) {
  std::size_t from = 0;
  if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
    from = QuotedLength(rest);
    if (from == 0) return std::string_view::npos;
  } else if (!rest.empty() && (rest.front() == '{' || rest.front() == '[')) {
    return std::string_view::npos;  // a flow collection
  }
  for (std::size_t i = from; i < rest.size(); ++i) {
    if (rest[i] == '#' && i > 0 && IsBlank(rest[i - 1])) return std::string_view::npos;
    if (rest[i] == ':' && (i + 1 == rest.size() || IsBlank(rest[i + 1]))) return i;
  }
  return std::string_view::npos;
}

std::uint32_t Characters(std::string_view text) {
  std::uint32_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

}  // namespace

std::optional<TemplatePlaceholder> FindUnrenderedTemplate(std::string_view text) {
  std::vector<TemplatePlaceholder> all = FindUnrenderedTemplates(text);
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

bool ExplainsParseError(const std::vector<TemplatePlaceholder>& placeholders, std::uint32_t line) {
  return std::any_of(placeholders.begin(), placeholders.end(), [&](const TemplatePlaceholder& placeholder) {
    return placeholder.line == line || placeholder.line + 1 == line;
  });
}

std::vector<TemplatePlaceholder> FindUnrenderedTemplates(std::string_view text) {
  std::vector<TemplatePlaceholder> found_all;
  // Most manifests hold neither a '$' nor "{{": no line is looked at.
  if (text.find('$') == std::string_view::npos && text.find("{{") == std::string_view::npos) return found_all;
  // The line's indentation below which a block scalar or a shell key's
  // value ends (-1: none open).
  long block_parent = -1;
  long shell_parent = -1;
  std::uint32_t line_number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    std::string_view rest = line.substr(indent);
    if (rest.empty() || rest.front() == '#') continue;  // blank lines and comments end nothing
    const long column = static_cast<long>(indent);
    if (block_parent >= 0) {
      if (column > block_parent) continue;
      block_parent = -1;
    }
    if (shell_parent >= 0) {
      const bool item = rest.front() == '-' && (rest.size() == 1 || IsBlank(rest[1]));
      if (column > shell_parent || (column == shell_parent && item)) continue;
      shell_parent = -1;
    }
    if (rest.starts_with("---") || rest.starts_with("...")) continue;
    // Sequence entries ("- ", "- - ") lead to the key or value.
    std::size_t key_column = indent;
    while (rest.size() >= 2 && rest[0] == '-' && IsBlank(rest[1])) {
      std::size_t skip = 1;
      while (skip < rest.size() && IsBlank(rest[skip])) ++skip;
      key_column += skip;
      rest.remove_prefix(skip);
    }
    std::string_view value = rest;
    std::size_t value_at = key_column;
    if (!rest.starts_with("{{")) {
      if (const std::size_t colon = KeyEnd(rest); colon != std::string_view::npos) {
        const std::string_view key = Unquoted(rest.substr(0, colon));
        if (IsShellKey(key)) {
          shell_parent = static_cast<long>(key_column);
          continue;
        }
        std::size_t start = colon + 1;
        while (start < rest.size() && IsBlank(rest[start])) ++start;
        value = rest.substr(start);
        value_at = key_column + start;
      }
    }
    value = WithoutComment(value);
    if (!value.empty() && (value.front() == '|' || value.front() == '>') &&
        value.find_first_not_of("|>+-0123456789") == std::string_view::npos) {
      // A block scalar's lines are deeper than the line's own indentation
      // (or, for an entry's key, the key's column).
      block_parent = static_cast<long>(value_at == key_column ? indent : key_column);
      continue;
    }
    if (std::optional<Found> found = PlaceholderIn(value)) {
      const std::string_view before = line.substr(0, value_at + found->at);
      found_all.push_back(TemplatePlaceholder{line_number, Characters(before) + 1, std::string(found->text)});
    }
  }
  return found_all;
}

TemplateKinds FindTemplateKinds(std::string_view text) {
  TemplateKinds kinds;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    std::size_t key = line.find_first_not_of(" \t");
    if (key != std::string_view::npos && line[key] == '-') key = line.find_first_not_of(" \t", key + 1);
    if (key == std::string_view::npos || line.substr(key, 5) != "kind:") continue;
    std::string_view value = WithoutComment(line.substr(key + 5));
    while (!value.empty() && IsBlank(value.front())) value.remove_prefix(1);
    while (!value.empty() && (IsBlank(value.back()) || value.back() == '\r')) value.remove_suffix(1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    if (value.empty()) continue;
    if (PlaceholderIn(value) || value.find("{{") != std::string_view::npos) {
      kinds.templated = true;
    } else {
      kinds.written.emplace_back(value);
    }
  }
  return kinds;
}

std::string UnrenderedTemplateMessage(const TemplatePlaceholder& placeholder) {
  return "an unrendered template (helm template, envsubst, your bundler): `" + placeholder.text +
         "` is still a placeholder; render it first and pipe it to `tjrender check -`";
}

}  // namespace tjr::source
