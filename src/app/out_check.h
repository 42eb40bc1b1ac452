#pragma once

#include <set>
#include <string>

#include "base/diagnostic.h"

namespace tjr::app {

/// `render --out DIR --check`: compares what render would write with what
/// DIR holds, writing nothing, so a CI job or pre-commit hook can refuse a
/// stale committed rendering.
class OutTreeCheck {
 public:
  /// `rerun` is the command that brings DIR up to date, for the messages.
  OutTreeCheck(std::string dir, std::string rerun)
      : dir_(std::move(dir)), rerun_(std::move(rerun)) {}

  /// One file render would write; a missing or different file is a finding.
  void Expect(const std::string& file, const std::string& bytes);

  /// The file of a TrainJob that renders nothing now because `error` (its
  /// first error) refuses it: when DIR still holds the file, it is stale,
  /// and the finding says why and that fixing the TrainJob comes first.
  void Refused(const std::string& file, const Diagnostic& error);

  /// The findings: stale and missing files (in Expect/Refused order), then
  /// files of DIR that render would not write (sorted): those DIR's index
  /// lists go away with the rerun (render --out prunes what it wrote), the
  /// others tjrender never wrote. Rule ids: rendered-stale,
  /// rendered-missing, rendered-extra.
  Diagnostics Finish();

 private:
  std::string dir_;
  std::string rerun_;
  std::set<std::string> expected_;
  Diagnostics findings_;
};

}  // namespace tjr::app
