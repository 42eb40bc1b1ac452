#pragma once

// A test seam for crash-consistency tests (scripts/out-atomicity,
// tests/integration/out_input_changed_test.py): when the
// environment variable TJRENDER_TEST_STOP_AT is "NAME" or "NAME:N", the N-th
// time (default the first) the point NAME is reached, the process stops
// itself with SIGSTOP, so the test can look at the file system at exactly
// that point and then kill -9 it there. Without the variable it does
// nothing but read it once.
namespace tjr {

void StopPoint(const char* name);

}  // namespace tjr
