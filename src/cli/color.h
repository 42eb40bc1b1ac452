#pragma once

#include <string>

namespace tjr::cli {

/// Whether `--color MODE` colours stdout: "always" and "never" decide;
/// "auto" colours a terminal unless NO_COLOR is set and non-empty
/// (https://no-color.org) or TERM is "dumb". `no_color` and `term` are the
/// variables' values, null when unset.
bool ColorWanted(const std::string& mode, bool stdout_is_terminal, const char* no_color, const char* term);

/// ColorWanted for this process's stdout and environment.
bool ColorWanted(const std::string& mode);

}  // namespace tjr::cli
