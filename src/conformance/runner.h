#pragma once

#include <filesystem>
#include <string>

#include "base/diagnostic.h"
#include "conformance/case.h"
#include "conformance/target.h"

namespace tjr::conformance {

enum class Outcome {
  kPassed,   ///< the output matches the expectation (or --update found nothing to change)
  kFailed,   ///< the output does not match
  kUpdated,  ///< --update rewrote the expectation
  kError,    ///< the case cannot be run as written (exit code 2)
};

struct CaseReport {
  std::string name;  ///< Case::name, or the folder when it could not be loaded
  Outcome outcome = Outcome::kError;
  std::string summary;  ///< one line: why it failed, or what was updated
  /// The evidence for stderr: the diff, the missing errors, the target's
  /// diagnostics (their files named from the working directory).
  Diagnostics details;
};

struct RunOptions {
  /// Rewrite the expectation from the output instead of comparing:
  /// expected-errors.txt when the target reported errors (one diagnostic a
  /// line), else expected.yaml (the objects sorted by apiVersion/kind/
  /// namespace/name, as kubectl prints them). Files are written atomically,
  /// only when their bytes change, and only inside the case folder; the
  /// other expectation file is removed.
  bool update = false;
};

/// Loads the case in `dir` and runs it with its registered target.
CaseReport RunCase(const std::filesystem::path& dir, const RunOptions& options);

/// Runs a loaded case with `target` (any target, so tests can pass fakes).
CaseReport RunLoadedCase(const Case& c, const Target& target, const RunOptions& options);

}  // namespace tjr::conformance
