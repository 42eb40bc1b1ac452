#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace tjr::cli {

/// Parses a command's arguments: the `named` options (a `--help,-h` switch
/// is expected among them) and any number of positional arguments, which
/// go to `positional`. Returns nothing when the command should go on, or
/// the exit code to return at once: 0 after printing `usage` for --help,
/// 2 after reporting a usage error.
std::optional<int> ParseCommandLine(const std::vector<std::string>& args,
                                    const boost::program_options::options_description& named,
                                    std::vector<std::string>* positional, const char* usage);

}  // namespace tjr::cli
