#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace tjr::cli {

Progress::Progress(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(Clock::now()), last_draw_(start_) {}

Progress::~Progress() { Finish(); }

bool Progress::Wanted(bool quiet) { return !quiet && ::isatty(STDERR_FILENO) == 1; }

std::string Progress::Line(std::size_t done, std::size_t total, double seconds) {
  char line[128];
  std::snprintf(line, sizeof line, "rendered %zu/%zu TrainJobs, %.0f/s", done, total,
                seconds > 0 ? static_cast<double>(done) / seconds : 0.0);
  return line;
}

void Progress::Tick() {
  ++done_;
  if (!enabled_) return;
  Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_draw_ < std::chrono::milliseconds(100)) {
    return;
  }
  last_draw_ = now;
  std::string text = "\r\033[K" + Line(done_, total_, std::chrono::duration<double>(now - start_).count());
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace tjr::cli
