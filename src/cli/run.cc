#include "cli/run.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/output.h"
#include "cli/version.h"

namespace tjr::cli {
namespace {

void PrintUsage(std::FILE* to) {
  std::fprintf(to, "usage: tjrender COMMAND [ARGS...]\n\ncommands:\n");
  for (const Command& command : Commands()) {
    std::fprintf(to, "  %-16s %s\n", command.name, command.summary);
  }
  std::fprintf(to, "\nRun 'tjrender help COMMAND' or 'tjrender COMMAND --help' for a command's options.\n");
}

}  // namespace

int Run(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(stderr);
    return kExitUsage;
  }
  std::string_view name = argv[1];
  // `tjrender help COMMAND` is `tjrender COMMAND --help`, as with git.
  if (name == "help" && argc > 2) {
    for (const Command& command : Commands()) {
      if (argv[2] == std::string_view(command.name)) return command.run({"--help"});
    }
    ReportUsageError("unknown command '" + std::string(argv[2]) + "'");
    PrintUsage(stderr);
    return kExitUsage;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    PrintUsage(stdout);
    return kExitClean;
  }
  if (name == "--version" || name == "version") {
    WriteStdout(VersionText());
    return kExitClean;
  }
  for (const Command& command : Commands()) {
    if (name == command.name) {
      std::vector<std::string> args(argv + 2, argv + argc);
      return command.run(args);
    }
  }
  ReportUsageError("unknown command '" + std::string(name) + "'");
  PrintUsage(stderr);
  return kExitUsage;
}

}  // namespace tjr::cli
