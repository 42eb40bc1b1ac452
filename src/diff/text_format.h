#pragma once

#include <string>

#include "diff/compare.h"

namespace tjr::diff {

struct TextOptions {
  /// ANSI colours: removed lines red, added lines green, hunk headers cyan,
  /// object headers bold.
  bool color = false;
};

/// The terminal report: a summary (counts, then one line per differing
/// object and per TrainJob with errors), then each object's unified diff
/// under a `=== <change> <Kind> <namespace>/<name> ===` header. The
/// messages of the errors are not repeated here (they go to stderr).
std::string FormatText(const DiffResult& result, const TextOptions& options = {});

}  // namespace tjr::diff
