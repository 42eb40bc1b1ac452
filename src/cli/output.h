#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace tjr::cli {

/// Diagnostics go to stderr as "FILE:LINE:COL: error: MESSAGE"; stdout
/// carries data only.
void Report(const Diagnostic& diagnostic);
void Report(const Diagnostics& diagnostics);
/// Report for a diagnostic whose message is a block of lines tjrender made
/// (a conformance case's diff): the first line as Report prints it, each
/// further line escaped on a line of its own, so it stays readable and no
/// line can pose as another finding or drive the terminal.
void ReportBlock(const Diagnostic& diagnostic);
void ReportUsageError(std::string_view message);
/// Progress and --verbose notes (stderr, through spdlog).
void Note(std::string_view message);
/// A note shown without --verbose too: "note: MESSAGE" on stderr.
void Notice(std::string_view message);
void SetVerbose(bool verbose);

/// Writes `bytes` to stdout in one piece.
void WriteStdout(std::string_view bytes);

}  // namespace tjr::cli
