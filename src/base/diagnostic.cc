#include "base/diagnostic.h"

#include <string_view>

#include "base/display.h"

namespace tjr {
namespace {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

// Paths into hostile documents (a thousand nested lists) would bury the
// message; the ends of a path are what a reader needs.
std::string Abbreviated(const std::string& path) {
  constexpr std::size_t kLimit = 200;
  if (path.size() <= kLimit) return path;
  return path.substr(0, 120) + "..." + path.substr(path.size() - 60);
}

}  // namespace

bool HasErrors(const Diagnostics& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::kError) return true;
  }
  return false;
}

std::string RuleId(const Diagnostic& diagnostic) {
  if (!diagnostic.rule.empty()) return diagnostic.rule;
  if (diagnostic.severity == Severity::kNote) return "note";
  if (diagnostic.category == Category::kInput) return "input";
  return diagnostic.severity == Severity::kError ? "upstream/error" : "upstream/warning";
}

std::string MessageWithoutRule(const Diagnostic& diagnostic) {
  const std::string& rule = diagnostic.rule;
  const std::string& message = diagnostic.message;
  const bool prefixed = !rule.empty() && message.size() > rule.size() + 2 && message[0] == '[' &&
                        message.compare(1, rule.size(), rule) == 0 && message.compare(rule.size() + 1, 2, "] ") == 0;
  return prefixed ? message.substr(rule.size() + 3) : message;
}

std::string Diagnostic::ToString() const {
  std::string out;
  if (location.known()) out += location.ToString() + ": ";
  out += SeverityName(severity);
  out += ": ";
  // Upstream validation messages already start with their path
  // ("spec.x: Invalid value: ..."); print it once.
  bool message_names_path = !field_path.empty() && message.size() > field_path.size() &&
                            message.compare(0, field_path.size(), field_path) == 0 &&
                            message[field_path.size()] == ':';
  if (!field_path.empty() && !message_names_path) out += EscapedForDisplay(Abbreviated(field_path)) + ": ";
  // One line, whatever the message quotes (a YAML value, another name).
  out += EscapedForDisplay(message);
  return out;
}

Diagnostic MakeError(Location location, std::string field_path, std::string message) {
  Diagnostic d;
  d.location = location;
  d.field_path = std::move(field_path);
  d.message = std::move(message);
  return d;
}

namespace {

Diagnostic MakeWithRule(Severity severity, Location location, std::string_view rule, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.location = location;
  d.rule = std::string(rule);
  d.message = "[" + d.rule + "] " + message;
  return d;
}

}  // namespace

Diagnostic MakeWarning(Location location, std::string_view rule, std::string message) {
  return MakeWithRule(Severity::kWarning, location, rule, std::move(message));
}

Diagnostic MakeNote(Location location, std::string_view rule, std::string message) {
  return MakeWithRule(Severity::kNote, location, rule, std::move(message));
}

Diagnostic AsInputError(Diagnostic diagnostic) {
  diagnostic.category = Category::kInput;
  return diagnostic;
}

Diagnostic MakeTooLarge(Location location, std::string field_path, std::string message) {
  // k8s.io/apiserver pkg/server/config.go: MaxRequestBodyBytes 3 * 1024 *
  // 1024 ("1.5MB is the recommended client request size ... the etcd server
  // should accept", allowed twice over for JSON); etcd server/embed/config.go:
  // DefaultMaxRequestBytes = 1.5 * 1024 * 1024.
  Diagnostic d = AsInputError(MakeError(
      location, std::move(field_path),
      std::move(message) + "; the cluster would refuse an object that large: kube-apiserver decodes request "
                           "bodies of at most 3 MiB and etcd stores values of at most 1.5 MiB (its "
                           "--max-request-bytes default)"));
  d.rule = kRuleInputTooLarge;
  return d;
}

}  // namespace tjr
