#pragma once

#include <map>
#include <string>

// The `{{.Name}}` placeholders Flyte fills in a base container's command and
// args (flyteplugins pluginmachinery/core/template/template.go).
namespace tjr::flyte {

/// Placeholder name (lower case: "input", "outputprefix", ...) -> value.
/// Names without a value are left as written.
using TemplateValues = std::map<std::string, std::string>;

/// Replaces every `{{ .Name }}` / `{{ $Name }}` (case-insensitive, spaces
/// allowed inside the braces) whose lower-cased name has a value.
std::string RenderTemplate(const std::string& text, const TemplateValues& values);

}  // namespace tjr::flyte
