// The `github` report: workflow commands that GitHub Actions turns into
// annotations (docs.github.com, "Workflow commands for GitHub Actions").
// GitHub keeps at most 10 error and 10 warning annotations per step and 50
// per job (actions/toolkit docs/problem-matchers.md): findings beyond the
// per-step limits are printed as plain log lines and counted in one notice.
#include <algorithm>

#include "base/display.h"
#include "report/format.h"

namespace tjr::report {
namespace {

// A message keeps its line breaks (an annotation may have several lines)
// but no other control: ESC and the like become C-style escapes, as on
// the terminal (base/display.h).
std::string DisplayedMessage(std::string_view message) {
  std::string out;
  std::size_t start = 0;
  while (start <= message.size()) {
    const std::size_t end = std::min(message.find_first_of("\r\n", start), message.size());
    out += EscapedForDisplay(message.substr(start, end - start));
    if (end == message.size()) break;
    out += message[end];
    start = end + 1;
  }
  return out;
}

// actions/toolkit escapeData: '%', '\r', '\n'.
std::string EscapeData(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

// escapeProperty: escapeData plus ':' and ','.
std::string EscapeProperty(std::string_view text) {
  std::string out;
  for (char c : EscapeData(text)) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Annotation(const char* level, const Finding& f) {
  const Diagnostic& d = f.diagnostic;
  std::string properties;
  auto add = [&](const char* key, const std::string& value) {
    properties += (properties.empty() ? " " : ",") + std::string(key) + "=" + EscapeProperty(value);
  };
  if (d.location.known()) {
    std::string file = *d.location.file;
    if (file.rfind("./", 0) == 0) file = file.substr(2);
    // GitHub decodes %25, %0D, %0A, %3A and %2C in a property and nothing
    // else, so a name with ESC or another control cannot be both exact and
    // safe in the log: the control is percent-encoded (the annotation then
    // names no file of the diff, which such a name could not be shown as
    // anyway) and never reaches the log raw.
    properties += (properties.empty() ? " " : ",") + std::string("file=") + PercentEncodedUnsafe(EscapeProperty(file));
    if (d.location.line > 0) add("line", std::to_string(d.location.line));
    if (d.location.column > 0) add("col", std::to_string(d.location.column));
  }
  add("title", "tjrender " + f.rule);
  std::string message = MessageWithoutRule(d);
  if (!d.field_path.empty() && message.rfind(d.field_path + ":", 0) != 0) {
    message = d.field_path + ": " + message;
  }
  if (f.object.known()) message = f.object.Display() + ": " + message;
  return "::" + std::string(level) + properties + "::" + EscapeData(DisplayedMessage(message)) + "\n";
}

}  // namespace

std::string WriteGithub(const Results& run, const WriteOptions& options) {
  std::string out;
  std::string cut_lines;
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t cut_errors = 0;
  std::size_t cut_warnings = 0;
  for (const Finding& f : run.findings) {
    if (f.diagnostic.severity == Severity::kError) {
      if (errors++ < options.github_max_errors) {
        out += Annotation("error", f);
        continue;
      }
      ++cut_errors;
    } else if (f.diagnostic.severity == Severity::kWarning) {
      if (warnings++ < options.github_max_warnings) {
        out += Annotation("warning", f);
        continue;
      }
      ++cut_warnings;
    } else {
      continue;
    }
    // A plain line: visible in the log, no annotation.
    cut_lines += f.diagnostic.ToString() + "\n";
  }
  out += cut_lines;
  if (cut_errors + cut_warnings > 0) {
    out += "::notice title=tjrender::" +
           EscapeData(std::to_string(cut_errors) + " more error(s) and " +
                      std::to_string(cut_warnings) +
                      " more warning(s) are in the log above but not annotated: GitHub shows " +
                      std::to_string(options.github_max_errors) + " error and " +
                      std::to_string(options.github_max_warnings) +
                      " warning annotations per step (50 per job); upload --report "
                      "sarif=FILE to code scanning to see all of them") +
           "\n";
  }
  out += SummaryLine(run) + "\n";
  return out;
}

}  // namespace tjr::report
