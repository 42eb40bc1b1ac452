#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/finding.h"

namespace tjr::report {

/// The output formats for findings.
enum class Format { kText, kJson, kJunit, kSarif, kGithub };

/// "text", "json", "junit", "sarif", "github"; nothing for other names.
std::optional<Format> ParseFormat(std::string_view name);
/// The names ParseFormat accepts, for messages: "text, json, junit, sarif, github".
const char* FormatNames();

struct WriteOptions {
  /// The tool version SARIF names in tool.driver.version.
  std::string tool_version = "0";
  /// GitHub shows at most this many annotations of each level per step
  /// (actions/toolkit docs/problem-matchers.md); the rest are listed as
  /// plain log lines and counted in one notice.
  std::size_t github_max_errors = 10;
  std::size_t github_max_warnings = 10;
};

/// The report for `run` in `format`: a whole document (JSON, JUnit XML,
/// SARIF 2.1.0), or lines (text: Diagnostic::ToString() per finding and
/// the summary line; github: workflow commands).
std::string Write(Format format, const Results& run, const WriteOptions& options = {});

std::string WriteText(const Results& run);
std::string WriteJson(const Results& run);
std::string WriteJunit(const Results& run);
std::string WriteSarif(const Results& run, const WriteOptions& options);
std::string WriteGithub(const Results& run, const WriteOptions& options);

/// A one-line description of a known rule id, or empty.
std::string_view RuleDescription(std::string_view rule);

/// What a report says about a known rule id (all empty for others).
struct RuleHelp {
  std::string_view description;  ///< one line
  std::string_view explanation;  ///< what it means and why it matters
  std::string_view help;         ///< what to do
};
RuleHelp HelpOf(std::string_view rule);
/// The rule ids HelpOf knows, in table order.
std::vector<std::string_view> DescribedRules();

}  // namespace tjr::report
