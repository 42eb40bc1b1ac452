#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Manifests that are templates of another tool, kept in a repository
// outside a Helm chart: `{{ ... }}` actions (a chart's template copied out,
// a bundler's), `${VAR}` and `$VAR` placeholders (envsubst, Flux's
// postBuild substitution). Read as they stand they are a parse error or a
// cascade of schema errors (`numNodes: ${N}` is a string); what they mean
// is only known once the tool has rendered them, so the loader reports one
// finding per file instead. Placeholders count only where a value or a
// whole line of a manifest should be: a shell line of `command`/`args`
// (`echo $HOME`), a block scalar (a script, a config file) and Kubernetes'
// own `$(VAR)` expansion are text the tool leaves alone, and GitHub
// expressions (`${{ matrix.os }}`) are no template actions.
namespace tjr::source {

/// The rule id of the finding.
inline constexpr char kUnrenderedTemplateRule[] = "unrendered-template";

/// The first placeholder of a template found in a file's text.
struct TemplatePlaceholder {
  std::uint32_t line = 1;    ///< from 1
  std::uint32_t column = 1;  ///< from 1, in characters
  std::string text;          ///< as written: "{{ .Values.image }}", "${IMAGE}", "$NODES"
};

/// The first template action or placeholder standing where a value or a
/// whole line should be, outside comments, block scalars and the values of
/// `command` and `args`; nothing for a manifest as kubectl applies it.
std::optional<TemplatePlaceholder> FindUnrenderedTemplate(std::string_view text);

/// Every line's first placeholder, in line order (FindUnrenderedTemplate's
/// is the first of them).
std::vector<TemplatePlaceholder> FindUnrenderedTemplates(std::string_view text);

/// Whether a parse error at `line` is the template's doing: a placeholder
/// stands on that line or the one before (`${EXTRA}` before `spec:` is
/// refused at its own line, `{{- if }}` at the line it opens). A file that
/// fails elsewhere (a duplicate key, comments in a JSON file) keeps its
/// parse error.
bool ExplainsParseError(const std::vector<TemplatePlaceholder>& placeholders, std::uint32_t line);

/// The kinds a template that does not parse shows: every `kind: K` line
/// (a key of a mapping or of a sequence entry) whose value is written out;
/// `templated` when a `kind:` value is itself a placeholder, so any kind
/// may come of it.
struct TemplateKinds {
  std::vector<std::string> written;
  bool templated = false;
};
TemplateKinds FindTemplateKinds(std::string_view text);

/// The finding's message, without the "[rule] " prefix.
std::string UnrenderedTemplateMessage(const TemplatePlaceholder& placeholder);

}  // namespace tjr::source
