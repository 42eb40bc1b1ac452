#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace tjr::cli {

/// A one-line progress report on stderr ("rendered N/M TrainJobs, R/s"),
/// shown only when stderr is a terminal, not --quiet, and the run has
/// lasted over a second; redrawn at most ten times a second and erased at
/// the end, so logs and pipes never see it.
class Progress {
 public:
  Progress(std::size_t total, bool enabled);
  ~Progress();

  /// One more TrainJob done.
  void Tick();
  /// Erases the line (if it was drawn).
  void Finish();

  /// The line for `done` of `total` after `seconds`.
  static std::string Line(std::size_t done, std::size_t total, double seconds);
  /// Whether progress may be shown: stderr is a terminal and not `quiet`.
  static bool Wanted(bool quiet);

 private:
  using Clock = std::chrono::steady_clock;
  std::size_t total_;
  std::size_t done_ = 0;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace tjr::cli
