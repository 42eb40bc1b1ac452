#include "cli/output.h"

#include <cstdio>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "base/display.h"

namespace tjr::cli {
namespace {

spdlog::logger& Logger() {
  static auto logger = [] {
    auto created = spdlog::stderr_logger_st("tjrender");
    created->set_pattern("%v");
    created->set_level(spdlog::level::warn);
    return created;
  }();
  return *logger;
}

}  // namespace

void Report(const Diagnostic& diagnostic) {
  std::string line = diagnostic.ToString();
  if (diagnostic.severity == Severity::kError) {
    Logger().error(line);
  } else {
    Logger().warn(line);
  }
}

void Report(const Diagnostics& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) Report(diagnostic);
}

void ReportBlock(const Diagnostic& diagnostic) {
  std::string_view rest = diagnostic.message;
  const std::size_t first_end = rest.find('\n');
  if (first_end == std::string_view::npos) return Report(diagnostic);
  Diagnostic head = diagnostic;
  head.message = std::string(rest.substr(0, first_end));
  Report(head);
  rest.remove_prefix(first_end + 1);
  if (rest.ends_with('\n')) rest.remove_suffix(1);  // a block's closing newline is no line
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    Logger().error("  {}", EscapedForDisplay(rest.substr(0, end)));
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
  }
}

// Messages name files and quote arguments, which may hold a newline or ESC:
// each is one line of plain text on the terminal (base/display.h).
void ReportUsageError(std::string_view message) { Logger().error("error: {}", EscapedForDisplay(message)); }

void Note(std::string_view message) { Logger().info("{}", EscapedLine(message)); }

void Notice(std::string_view message) { Logger().warn("note: {}", EscapedForDisplay(message)); }

void SetVerbose(bool verbose) {
  Logger().set_level(verbose ? spdlog::level::info : spdlog::level::warn);
}

void WriteStdout(std::string_view bytes) {
  std::fwrite(bytes.data(), 1, bytes.size(), stdout);
  std::fflush(stdout);
}

}  // namespace tjr::cli
