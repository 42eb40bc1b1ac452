#pragma once

#include <string>
#include <vector>

#include "cli/command_docs.h"

// Shell completion scripts written from the commands' option tables: the
// commands, each command's options, the values of --target and of options
// whose usage line lists them (--format text|markdown|json), and files for
// everything else.
namespace tjr::cli {

/// For bash-completion (`complete -F _tjrender tjrender`).
std::string BashCompletion(const std::vector<CommandDoc>& commands);
/// For zsh's compsys (`#compdef tjrender`, a file named _tjrender).
std::string ZshCompletion(const std::vector<CommandDoc>& commands);
/// For fish (`complete -c tjrender ...`).
std::string FishCompletion(const std::vector<CommandDoc>& commands);

}  // namespace tjr::cli
