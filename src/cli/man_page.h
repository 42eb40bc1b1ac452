#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/command_docs.h"

// Man pages (roff, man(7) macros) written from the --help text.
namespace tjr::cli {

/// `text` safe as roff input text: backslashes and hyphens escaped, a line
/// that would start with a control character guarded.
std::string RoffEscape(std::string_view text);

/// tjrender-NAME(1): NAME from the summary, SYNOPSIS from the usage lines,
/// DESCRIPTION from the rest of the usage text, OPTIONS from the table.
std::string CommandManPage(const CommandDoc& command, std::string_view version);

/// tjrender(1): the commands, with a SEE ALSO naming each page, and what
/// --version prints (`version_text`).
std::string OverviewManPage(const std::vector<CommandDoc>& commands, std::string_view version,
                            std::string_view version_text);

}  // namespace tjr::cli
