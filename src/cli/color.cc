#include "cli/color.h"

#include <cstdlib>

#include <unistd.h>

namespace tjr::cli {

bool ColorWanted(const std::string& mode, bool stdout_is_terminal, const char* no_color, const char* term) {
  if (mode != "auto") return mode == "always";
  const bool no_color_set = no_color != nullptr && *no_color != '\0';
  const bool dumb = term != nullptr && std::string(term) == "dumb";
  return stdout_is_terminal && !no_color_set && !dumb;
}

bool ColorWanted(const std::string& mode) {
  return ColorWanted(mode, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

}  // namespace tjr::cli
