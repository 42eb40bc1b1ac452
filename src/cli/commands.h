#pragma once

#include <string>
#include <vector>

namespace tjr::cli {

// One handler per command, each in its own command_<name>.cc.
int RunFmt(const std::vector<std::string>& args);
int RunMerge(const std::vector<std::string>& args);

}  // namespace tjr::cli
