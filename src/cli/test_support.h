#pragma once
// Test-only: running command handlers in-process with their output captured,
// and (from testkit) throw-away folders and source-tree paths.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testkit/temp_dir.h"

namespace tjr::cli::testing {

struct Outcome {
  int exit_code;
  std::string out;
  std::string err;
};

inline Outcome Invoke(int (*command)(const std::vector<std::string>&), const std::vector<std::string>& args) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  int code = command(args);
  std::string out = ::testing::internal::GetCapturedStdout();
  return {code, out, ::testing::internal::GetCapturedStderr()};
}

using testkit::SourcePath;
using testkit::TempDir;

}  // namespace tjr::cli::testing
