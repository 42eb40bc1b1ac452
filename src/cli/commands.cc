#include "cli/command.h"
#include "cli/commands.h"

namespace tjr::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"fmt", "print YAML or JSON documents the way kubectl prints objects", RunFmt},
      {"merge", "strategic-merge a patch into objects, as kubectl patch --local does", RunMerge},
      {"conformance", "run golden-file conformance cases (folders with case.yaml)",
       RunConformance},
  };
  return commands;
}

}  // namespace tjr::cli
