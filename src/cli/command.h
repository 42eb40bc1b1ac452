#pragma once

#include <string>
#include <vector>

namespace tjr::cli {

/// Exit codes shared by every command.
enum ExitCode : int { kExitClean = 0, kExitFindings = 1, kExitUsage = 2 };

/// One subcommand: its name, one line of help, and the handler that receives
/// the arguments after the command name.
struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

/// The command table, in the order `tjrender --help` lists it.
const std::vector<Command>& Commands();

}  // namespace tjr::cli
