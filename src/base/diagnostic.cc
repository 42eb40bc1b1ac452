#include "base/diagnostic.h"

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
  if (!field_path.empty() && !message_names_path) out += Abbreviated(field_path) + ": ";
  out += message;
  return out;
}

Diagnostic MakeError(Location location, std::string field_path, std::string message) {
  Diagnostic d;
  d.location = location;
  d.field_path = std::move(field_path);
  d.message = std::move(message);
  return d;
}

Diagnostic AsInputError(Diagnostic diagnostic) {
  diagnostic.category = Category::kInput;
  return diagnostic;
}

}  // namespace tjr
