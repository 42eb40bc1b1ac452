#include "cli/command.h"

namespace tjr::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {};
  return commands;
}

}  // namespace tjr::cli
