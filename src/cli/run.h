#pragma once

namespace tjr::cli {

/// Parses the command line, runs one command and returns the process exit
/// code: 0 clean, 1 findings, 2 usage or input errors.
int Run(int argc, char** argv);

}  // namespace tjr::cli
